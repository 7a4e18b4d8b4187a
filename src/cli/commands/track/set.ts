import type { Context } from '../../context.js';
import type { ReleaseResource } from '../../../contract/index.js';
import type { SetOpts } from './spec.js';
import type { TrackResource } from '../../../contract/index.js';
import { ReplaceReleaseTracksBody } from '../../../contract/index.js';
import { idArg } from '../../shared/args.js';
import { trackColumns } from '../../shared/track-views.js';
import { loadDataFile } from '../../shared/data-file.js';
import { printList, success, plural } from '../../output/index.js';

export async function run(ctx: Context, opts: SetOpts, args: string[]): Promise<void> {
  const releaseId = idArg(args[0], 'release id');
  const body = await loadDataFile(opts.file!, '--file', ReplaceReleaseTracksBody, ctx.io.stdin);
  const client = await ctx.services.client();
  const release = await client.call('replaceReleaseTracks', { params: { releaseId }, body });
  const tracks = release.tracks ?? (await client.call('listTracks', { params: { releaseId } }));
  success(ctx, `Release ${releaseId} now has ${plural(tracks.length, 'track')}`);
  await printList(ctx, tracks, trackColumns);
}
