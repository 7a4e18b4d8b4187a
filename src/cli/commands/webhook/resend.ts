// `webhook resend <id> <event-id>`: delivers an event to the endpoint again, with its webhook-id.
import type { Context } from '../../context.js';
import type { OptsOf } from '../../command.js';
import type { resendCommand } from './spec.js';
import { idArg, intOption } from '../../shared/args.js';
import { printJson, success } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof resendCommand>, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  const eventId = intOption(args[1] ?? '', 'event id', 1, Number.MAX_SAFE_INTEGER)!;
  const client = await ctx.services.client();
  const d = await client.call('resendWebhookEvent', { params: { webhookId: id }, body: { event_id: eventId } });
  if (ctx.globals.json) return printJson(ctx, d);
  ctx.io.stdout.write(`${d.id}\n`);
  success(
    ctx,
    `event ${d.event_id} (${d.event_type}) queued for webhook ${id} as delivery ${d.id}; see it with \`reldist webhook deliveries ${id} --event ${d.event_id}\``,
  );
}
