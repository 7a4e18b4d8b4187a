// `webhook test <id>`: a signed ping sent now; exit 0 only when the endpoint answered 2xx.
import type { Context } from '../../context.js';
import type { OptsOf } from '../../command.js';
import type { testCommand } from './spec.js';
import { CliError } from '../../errors.js';
import { idArg } from '../../shared/args.js';
import { printJson } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof testCommand>, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  const client = await ctx.services.client();
  const r = await client.call('testWebhook', { params: { webhookId: id }, body: {} });
  if (ctx.globals.json) printJson(ctx, r);
  else if (r.delivered) ctx.io.stdout.write(`delivered: ${r.status_code} in ${r.duration_ms} ms (${r.webhook_id})\n`);
  if (!r.delivered)
    throw new CliError(`webhook ${id}: the test ping was not delivered: ${r.error ?? `answered ${r.status_code}`}`, { code: 'webhook_not_delivered' });
}
