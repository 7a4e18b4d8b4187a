import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { listCommand } from './spec.js';
import { idArg } from '../../shared/args.js';
import { trackColumns } from '../../shared/track-views.js';
import { printList } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof listCommand>, args: string[]): Promise<void> {
  const releaseId = idArg(args[0], 'release id');
  const tracks = await (await ctx.services.client()).call('listTracks', { params: { releaseId } });
  await printList(ctx, tracks, trackColumns, { empty: `release ${releaseId} has no tracks yet; add some with \`reldist track upload ${releaseId} <file…>\`` });
}
