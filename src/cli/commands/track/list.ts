import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { listCommand } from './spec.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackColumns } from '../../shared/track-views.js';
import { printList } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof listCommand>, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  const tracks = await client.call('listTracks', { params: { releaseId } });
  await printList(ctx, tracks, trackColumns, { empty: `release ${releaseId} has no tracks yet; add some with \`reldist track upload ${releaseId} <file…>\`` });
}
