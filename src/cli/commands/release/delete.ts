import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { deleteCommand } from './spec.js';
import { UsageError } from '../../errors.js';
import { parseReleaseRef, resolveReleaseRef } from '../../shared/release-ref.js';
import { confirmOrAbort } from '../../prompts.js';
import { printJson, success, plural } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof deleteCommand>, args: string[]): Promise<void> {
  const ref = parseReleaseRef(args[0]);
  const client = await ctx.services.client();
  const { id } = await resolveReleaseRef(client, args[0], ctx.signal, ref);
  if (!ctx.globals.yes) {
    if (!ctx.canPrompt) throw new UsageError(`release ${id}: not deleted: confirmation needed`, 'pass --yes to delete without a prompt');
    const r = await client.call('getRelease', { params: { releaseId: id } });
    await confirmOrAbort(ctx, `Delete release ${id} "${r.title}" (${r.status}, ${plural(r.track_count, 'track')})? This cannot be undone.`);
  }
  const res = await client.call('deleteRelease', { params: { releaseId: id } });
  if (ctx.globals.json) printJson(ctx, res);
  else success(ctx, res.message);
}
