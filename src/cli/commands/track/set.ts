import type { Context } from '../../context.js';
import type { SetOpts } from './spec.js';
import type { TrackResource } from '../../../contract/index.js';
import { ReplaceReleaseTracksBody, tracksOf } from '../../../contract/index.js';
import { UsageError } from '../../errors.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackColumns } from '../../shared/track-views.js';
import { loadDataFile } from '../../shared/data-file.js';
import { writeTrackList } from '../../shared/track-list-write.js';
import { printList, success, plural } from '../../output/index.js';

export async function run(ctx: Context, opts: SetOpts, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const body = await loadDataFile(opts.file!, '--file', ReplaceReleaseTracksBody, ctx.io.stdin);
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  // Checked against the list as it is when written: a track added meanwhile is not dropped unseen.
  const release = await writeTrackList(ctx, client, releaseId, (current) => {
    if (!opts.replaceAll) refuseDrops(releaseId, current, body, opts.file!);
    return body;
  });
  const tracks = release.tracks ?? (await client.call('listTracks', { params: { releaseId } }));
  success(ctx, `Release ${releaseId} now has ${plural(tracks.length, 'track')}`);
  await printList(ctx, tracks, trackColumns);
}

/** A list that leaves out existing tracks removes them: only with --replace-all, and named. */
function refuseDrops(releaseId: string, current: TrackResource[], body: ReplaceReleaseTracksBody, file: string): void {
  const kept = new Set(tracksOf(body).map((t) => (t.id === undefined ? undefined : String(t.id))));
  const dropped = current.filter((t) => !kept.has(String(t.id)));
  if (dropped.length === 0) return;
  const lines = dropped.map((t) => `would remove: ${t.disc > 1 ? `disc ${t.disc} ` : ''}position ${t.position}, track ${t.id} "${t.title}"`);
  throw new UsageError(
    `${file === '-' ? 'the track list on standard input' : file} leaves out ${plural(dropped.length, 'existing track')} of release ${releaseId}, which would remove ${dropped.length === 1 ? 'it' : 'them'}; nothing was changed`,
    'list every track to keep by its "id", or add --replace-all to remove the others',
    lines,
  );
}
