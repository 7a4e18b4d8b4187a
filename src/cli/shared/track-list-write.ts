// Changes a release's track list safely against other writers: read the list with its ETag,
// build the whole new list from it, and PUT it with If-Match. When someone else changed the list
// in between (412), read it again and rebuild, a bounded number of times, so that simultaneous
// `track upload`s to one release all end with their tracks attached.
import { ApiError, callIfChanged, type ApiClient } from '../../client/index.js';
import type { EntityId, ReleaseResource, ReplaceReleaseTracksBody, TrackResource } from '../../contract/index.js';
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { sleep } from '../../client/retry.js';
import { trackListMax, trackPositionMax, trackTitleMaxLength } from '../../contract/routes.js';

/** Enough for a few dozen writers at once; each round at least one of them gets through. */
export const TRACK_LIST_ATTEMPTS = 25;

/** The track list as read, with the ETag to send back in If-Match. */
export async function readTrackList(
  client: ApiClient,
  releaseId: EntityId,
  signal?: AbortSignal,
): Promise<{ tracks: TrackResource[]; etag: string | undefined }> {
  const res = await callIfChanged(client, 'listTracks', { params: { releaseId }, ...(signal ? { signal } : {}) }, undefined);
  // Without If-None-Match the answer always has a body.
  if (!res.modified) throw new Error('the service answered 304 to a read without If-None-Match');
  return { tracks: res.body, etag: res.etag };
}

/** An existing track as PUT input: every field it has, so that nothing about it changes. */
export function keepTrack(t: TrackResource) {
  return {
    id: t.id,
    title: t.title,
    version: t.version,
    position: t.position,
    disc: t.disc,
    artists: t.artists,
    contributors: t.contributors,
    isrc: t.isrc,
    explicit: t.explicit,
    audio_language: t.audio_language,
    preview_start_seconds: t.preview_start_seconds,
  };
}

/**
 * Whether a track list's values are within the contract's plain-data bounds: its length, and each
 * track's title (trimmed) and position. Checked on the whole body as built: the kept tracks
 * (`keepTrack`: the service's own values) pass by construction, the new ones' titles come from
 * tags or file names. A body outside them is parsed by the client as usual, so the user hears of
 * it in its usual words.
 */
export function withinTrackListBounds(tracks: readonly { title: string; position?: number | undefined }[]): boolean {
  return (
    tracks.length <= trackListMax &&
    tracks.every((t) => {
      const title = t.title.trim().length;
      const position = t.position ?? 1;
      return title >= 1 && title <= trackTitleMaxLength && Number.isInteger(position) && position >= 1 && position <= trackPositionMax;
    })
  );
}

export const isStaleWrite = (err: unknown): boolean => err instanceof ApiError && err.status === 412;

/**
 * Reads, builds and writes until the write is based on the current list. `build` may throw
 * (a refusal in the user's terms); it is called again with the fresh list after each 412.
 * `checked` says of a built body that the client need not parse it (ApiClient's `bodyChecked`).
 */
export async function writeTrackList(
  ctx: Context,
  client: ApiClient,
  releaseId: EntityId,
  build: (current: TrackResource[]) => ReplaceReleaseTracksBody,
  options: { attempts?: number; checked?: (body: ReplaceReleaseTracksBody) => boolean } = {},
): Promise<ReleaseResource> {
  const attempts = options.attempts ?? TRACK_LIST_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const { tracks, etag } = await readTrackList(client, releaseId, ctx.signal);
    const body = build(tracks);
    try {
      return await client.call('replaceReleaseTracks', {
        params: { releaseId },
        body,
        signal: ctx.signal,
        ...(etag ? { headers: { 'if-match': etag } } : {}),
        ...(options.checked?.(body) ? { bodyChecked: true } : {}),
      });
    } catch (err) {
      if (!isStaleWrite(err)) throw err;
      if (attempt >= attempts) {
        throw new CliError(
          `the track list of release ${releaseId} kept changing while this command tried to write it (${attempts} attempts); nothing was changed by this command`,
          {
            exitCode: ExitCode.failure,
            code: 'precondition_failed',
            hint: 'someone else is changing the tracks right now; run the command again',
          },
        );
      }
      // Jittered, growing a little, so that writers that collided spread out.
      await sleep(Math.round(Math.random() * 20 * Math.min(attempt, 10)), ctx.signal);
    }
  }
}
