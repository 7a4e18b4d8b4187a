import type { Context } from '../../context.js';
import type { SetOpts } from './spec.js';
import type { EntityId, TrackResource } from '../../../contract/index.js';
import { ReplaceReleaseTracksBody, tracksOf } from '../../../contract/index.js';
import { UsageError } from '../../errors.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackColumns } from '../../shared/track-views.js';
import { lineOf, loadDataFileWithLines } from '../../shared/data-file.js';
import { fileLocate, judgeAtDoor, pathParts, refuseAtDoor, warnAtDoor, type DoorFinding } from '../../shared/field-checks.js';
import { writeTrackList } from '../../shared/track-list-write.js';
import { printList, success, plural } from '../../output/index.js';

export async function run(ctx: Context, opts: SetOpts, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const { value: body, parsed } = await loadDataFileWithLines(opts.file!, '--file', ReplaceReleaseTracksBody, ctx.io.stdin);
  // The rules' paths (tracks.2.isrc) in the file's own shape: a plain array or {tracks: [...]}.
  const locate = fileLocate(
    parsed.name,
    parsed.value,
    (p) => lineOf(parsed, p),
    (p) => {
      const parts = pathParts(p);
      if (parts[0] !== 'tracks') return undefined;
      return Array.isArray(parsed.value) ? parts.slice(1) : parts;
    },
  );
  let blocked: DoorFinding[] = [];
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  // Checked against the list as it is when written: a track added meanwhile is not dropped unseen.
  const release = await writeTrackList(ctx, client, releaseId, (current) => {
    if (!opts.replaceAll) refuseDrops(releaseId, current, body, opts.file!);
    // The submit's field rules on the list as it will be: an entry keeping a track keeps what it leaves out.
    const byId = new Map(current.map((t) => [String(t.id), t]));
    const tracks = tracksOf(body).map((t) => ({ ...(t.id === undefined ? {} : byId.get(String(t.id))), ...t }));
    const judged = judgeAtDoor({ tracks, locate, now: ctx.now() });
    if (judged.refused.length > 0) warnAtDoor(ctx, judged.blocked);
    refuseAtDoor(judged.refused, 'nothing was changed');
    blocked = judged.blocked;
    return body;
  });
  warnAtDoor(ctx, blocked);
  const tracks = release.tracks ?? (await client.call('listTracks', { params: { releaseId } }));
  success(ctx, `Release ${releaseId} now has ${plural(tracks.length, 'track')}`);
  await printList(ctx, tracks, trackColumns);
}

/** A list that leaves out existing tracks removes them: only with --replace-all, and named. */
function refuseDrops(releaseId: EntityId, current: TrackResource[], body: ReplaceReleaseTracksBody, file: string): void {
  const kept = new Set(tracksOf(body).map((t) => t.id));
  const dropped = current.filter((t) => !kept.has(t.id));
  if (dropped.length === 0) return;
  const lines = dropped.map((t) => `would remove: ${t.disc > 1 ? `disc ${t.disc} ` : ''}position ${t.position}, track ${t.id} "${t.title}"`);
  throw new UsageError(
    `${file === '-' ? 'the track list on standard input' : file} leaves out ${plural(dropped.length, 'existing track')} of release ${releaseId}, which would remove ${dropped.length === 1 ? 'it' : 'them'}; nothing was changed`,
    'list every track to keep by its "id", or add --replace-all to remove the others',
    lines,
  );
}
