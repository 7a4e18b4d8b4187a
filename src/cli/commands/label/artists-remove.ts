// `label artists remove <id>`: stop managing an artist (confirmation, or --yes).
import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { removeCommand } from './spec.js';
import { UsageError } from '../../errors.js';
import { printJson, success, plural } from '../../output/index.js';
import { confirmOrAbort } from '../../prompts.js';
import { idArg } from '../../shared/args.js';

export async function run(ctx: Context, _opts: OptsOf<typeof removeCommand>, args: string[]): Promise<void> {
  const rawId = args[0];
  const id = idArg(rawId, 'artist id');
  const client = await ctx.services.client();
  if (!ctx.globals.yes) {
    if (!ctx.canPrompt) throw new UsageError(`artist ${id}: not removed: confirmation needed`, 'pass --yes to remove without a prompt');
    const a = await client.call('getLabelArtist', { params: { id } });
    await confirmOrAbort(ctx, `Stop managing ${a.name} (artist ${id}, ${plural(a.release_count, 'release')})?`);
  }
  const res = await client.call('removeLabelArtist', { body: { artist_id: id } });
  if (ctx.globals.json) printJson(ctx, res);
  else success(ctx, res.message);
}
