// `webhook update <id>`: its URL, event types, description, or paused / resumed.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { idArg } from '../../shared/args.js';
import { printRecord } from '../../output/index.js';
import type { UpdateOpts } from './spec.js';
import { endpointFields, eventsOption } from './views.js';

export async function run(ctx: Context, opts: UpdateOpts, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  if (opts.enable && opts.disable) throw new UsageError('--enable and --disable: give one of them');
  const events = eventsOption(opts.events);
  const body = {
    ...(opts.url !== undefined ? { url: opts.url } : {}),
    ...(events ? { events } : {}),
    ...(opts.description !== undefined ? { description: opts.description.trim() === '' ? null : opts.description } : {}),
    ...(opts.enable ? { enabled: true } : opts.disable ? { enabled: false } : {}),
  };
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --url, --events, --description, --enable or --disable');
  const client = await ctx.services.client();
  const hook = await client.call('updateWebhook', { params: { webhookId: id }, body });
  await printRecord(ctx, hook, endpointFields);
}
