// `webhook deliveries <id>`: the endpoint's delivery log, newest first.
import type { Context } from '../../context.js';
import { webhookDeliveriesPage, webhookDeliveryStatuses } from '../../../contract/wire-values.js';
import { choiceOption, idArg, intOption } from '../../shared/args.js';
import { printList } from '../../output/index.js';
import type { DeliveriesOpts } from './spec.js';
import { deliveryColumns } from './views.js';

export async function run(ctx: Context, opts: DeliveriesOpts, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  const status = choiceOption(opts.status, '--status', webhookDeliveryStatuses);
  const eventId = intOption(opts.event, '--event', 1, Number.MAX_SAFE_INTEGER);
  const limit = intOption(opts.limit, '--limit', 1, webhookDeliveriesPage.maxLimit);
  const client = await ctx.services.client();
  const page = await client.call('listWebhookDeliveries', {
    params: { webhookId: id },
    query: { ...(status ? { status } : {}), ...(eventId !== undefined ? { event_id: eventId } : {}), ...(limit !== undefined ? { limit } : {}) },
    signal: ctx.signal,
  });
  await printList(ctx, page.data, deliveryColumns, { empty: `no deliveries to webhook ${id}${status || eventId ? ' match' : ' yet'}` });
}
