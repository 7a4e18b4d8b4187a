// `webhook delete <id>`: the endpoint and its delivery log; asks first on a terminal.
import type { Context } from '../../context.js';
import type { OptsOf } from '../../command.js';
import type { deleteCommand } from './spec.js';
import { UsageError } from '../../errors.js';
import { idArg } from '../../shared/args.js';
import { confirmOrAbort } from '../../prompts.js';
import { printJson, success } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof deleteCommand>, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  const client = await ctx.services.client();
  if (!ctx.globals.yes) {
    if (!ctx.canPrompt) throw new UsageError(`webhook ${id}: not deleted: confirmation needed`, 'pass --yes to delete without a prompt');
    const hook = await client.call('getWebhook', { params: { webhookId: id } });
    await confirmOrAbort(ctx, `Delete webhook ${id} (${hook.url}) and its delivery log? Nothing more is delivered to it.`);
  }
  const res = await client.call('deleteWebhook', { params: { webhookId: id } });
  if (ctx.globals.json) printJson(ctx, res);
  else success(ctx, res.message);
}
