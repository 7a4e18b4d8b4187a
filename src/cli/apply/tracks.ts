// The tracks of an apply plan: matched by disc and position, audio compared by sha256, and the
// body of PUT …/tracks built once the uploads are done.
import type { CreateReleaseRequest, ReleaseResource, ReplaceReleaseTracksTrackInput, TrackResource } from '../../contract/index.js';
import type { PlannedTrack } from '../release-file/load.js';
import { METADATA_FORMS, TRACK_FORMS, TRACK_KEYS, fieldChange, same } from './forms.js';
import type { Change, DesiredRelease, ExistingRelease, FieldChange, TrackSlot, TracksChange } from './types.js';

/**
 * A track refers to audio by its sha256 (`file: sha256:…`), and the service's track at that place
 * does not hold it: there is no local file to upload, so the release cannot be brought to the file.
 */
/** The file's cover refers to an image by its sha256 (`artwork: sha256:…`) that is not the service's cover: nothing to upload. */
export class StoredCoverMissing extends Error {
  constructor(
    readonly sha256: string,
    readonly serviceSha256: string | null,
  ) {
    const has = serviceSha256 === null ? 'has no uploaded cover' : `has another cover (sha256:${serviceSha256.slice(0, 12)}…)`;
    super(`artwork: the cover sha256:${sha256.slice(0, 12)}… is not the service's, which ${has}; nothing to upload: give the path of the image`);
    this.name = 'StoredCoverMissing';
  }
}

export class StoredAudioMissing extends Error {
  constructor(
    readonly trackIndex: number,
    readonly trackName: string,
    readonly sha256: string,
    readonly serviceSha256: string | null,
  ) {
    const has = serviceSha256 === null ? 'has no audio there' : `has other audio there (sha256:${serviceSha256.slice(0, 12)}…)`;
    super(
      `tracks.${trackIndex}.file: ${trackName} refers to audio sha256:${sha256.slice(0, 12)}… but the service ${has}; nothing to upload: give the path of the audio file`,
    );
    this.name = 'StoredAudioMissing';
  }
}

/** Positions as the service assigns them, so that a file without positions matches what it made. */
export function trackSlots(tracks: readonly PlannedTrack[]): TrackSlot[] {
  const last = new Map<number, number>();
  return tracks.map((t) => {
    const disc = t.fields.disc ?? 1;
    const position = t.fields.position ?? (last.get(disc) ?? 0) + 1;
    last.set(disc, Math.max(last.get(disc) ?? 0, position));
    return { disc, position };
  });
}

export const slotKey = (s: TrackSlot) => `${s.disc}:${s.position}`;

export function trackName(s: TrackSlot, multiDisc: boolean): string {
  return multiDisc ? `disc ${s.disc} track ${s.position}` : `track ${s.position}`;
}

/** An audio file on the service counts only when it is there and was accepted. */
export function storedSha256(track: TrackResource | undefined): string | null {
  return track?.file && track.file.state === 'ready' ? track.file.sha256 : null;
}

export function trackChanges(desired: DesiredRelease, existing: ExistingRelease): Change[] {
  const { plan } = desired;
  // A file without tracks says nothing about them (a release file may carry metadata only).
  if (plan.tracks.length === 0) return [];
  const existingTracks = existing.tracks;
  const slots = trackSlots(plan.tracks);
  const multiDisc = slots.some((s) => s.disc !== 1) || existingTracks.some((t) => t.disc !== 1);
  const byKey = new Map(existingTracks.map((t) => [slotKey(t), t]));
  const matched: (TrackResource | undefined)[] = slots.map((s) => byKey.get(slotKey(s)));
  const wanted = plan.tracks.map((t, i) => ({ ...t.fields, ...inheritedFields(t, matched[i], plan.release, existing.release) }));

  const fields: FieldChange[] = [];
  const uploadFields: FieldChange[] = [];
  const uploads = new Set<number>();
  wanted.forEach((want, i) => {
    const name = trackName(slots[i]!, multiDisc);
    const have = matched[i];
    const sha = desired.audioSha256[i]!;
    // A track without audio in its file leaves the service's audio as it is (none, or uploaded since).
    if (sha !== null && sha !== storedSha256(have)) {
      const stored = plan.tracks[i]!.stored;
      if (stored !== undefined) throw new StoredAudioMissing(i, name, stored, storedSha256(have));
      uploads.add(i);
      uploadFields.push(fieldChange(`tracks.${i}.audio`, `${name} audio`, have?.file?.sha256 ?? undefined, sha));
    }
    if (!have) {
      fields.push(fieldChange(`tracks.${i}`, `${name} added`, undefined, titleFor(desired, i, undefined)));
      return;
    }
    for (const key of TRACK_KEYS) {
      const after = want[key];
      if (after === undefined) continue;
      const form = TRACK_FORMS[key] as (v: unknown) => unknown;
      if (!same(form(after), form(have[key]))) fields.push(fieldChange(`tracks.${i}.${key}`, `${name} ${key}`, have[key], after));
    }
  });
  const kept = new Set(matched.filter((t): t is TrackResource => t !== undefined).map((t) => t.id));
  const removed = existingTracks.filter((t) => !kept.has(t.id)).sort((a, b) => a.disc - b.disc || a.position - b.position);
  for (const t of removed) {
    fields.push(fieldChange('tracks', `${trackName(t, multiDisc)} removed`, t.title, undefined));
  }

  if (fields.length === 0 && uploads.size === 0) return [];
  const changes: Change[] = [];
  if (uploads.size > 0) changes.push({ kind: 'upload', fields: uploadFields, trackIndexes: [...uploads] });
  changes.push({
    kind: 'tracks',
    // Audio differences are listed once, under the upload.
    fields,
    buildBody: tracksBodyBuilder(desired, slots, matched, uploads, wanted),
  });
  return changes;
}

/** Track fields that default to the release's: artists and explicit. */
export const INHERITED_KEYS = ['artists', 'explicit'] as const;

/**
 * A track the file leaves without artists (or explicit) took the release's when it was made; when
 * the file changes the release's, such a track follows, as it would in a release made afresh. A
 * track whose value was set otherwise (by hand, or by an earlier file) is left alone.
 */
export function inheritedFields(
  t: PlannedTrack,
  have: TrackResource | undefined,
  wantRelease: CreateReleaseRequest,
  haveRelease: ReleaseResource,
): Partial<Pick<PlannedTrack['fields'], (typeof INHERITED_KEYS)[number]>> {
  const out: Record<string, unknown> = {};
  if (!have) return out;
  for (const key of INHERITED_KEYS) {
    const want = wantRelease[key];
    if (t.fields[key] !== undefined || want === undefined) continue;
    const form = METADATA_FORMS[key] as (v: unknown) => unknown;
    const releaseChanges = !same(form(want), form(haveRelease[key]));
    const trackFollowed = same(form(have[key]), form(haveRelease[key]));
    if (releaseChanges && trackFollowed) out[key] = want;
  }
  return out;
}

export function titleFor(desired: DesiredRelease, i: number, have: TrackResource | undefined): string {
  return desired.plan.tracks[i]!.fields.title ?? have?.title ?? desired.defaultTitles[i]!;
}

export function tracksBodyBuilder(
  desired: DesiredRelease,
  slots: readonly TrackSlot[],
  matched: readonly (TrackResource | undefined)[],
  uploads: ReadonlySet<number>,
  wanted: readonly PlannedTrack['fields'][] = desired.plan.tracks.map((t) => t.fields),
): TracksChange['buildBody'] {
  return (fileKeys) => ({
    tracks: desired.plan.tracks.map((t, i): ReplaceReleaseTracksTrackInput => {
      const have = matched[i];
      const { title: _title, disc: _disc, position: _position, ...fields } = wanted[i]!;
      let fileKey: string | undefined;
      if (uploads.has(i)) {
        fileKey = fileKeys.get(i);
        if (fileKey === undefined) throw new Error(`no file key for the upload of tracks.${i} (${t.written})`);
      }
      return {
        ...(have ? { id: have.id } : {}),
        ...(fileKey !== undefined ? { file_key: fileKey } : {}),
        ...withoutUndefined(fields),
        title: titleFor(desired, i, have),
        // Always explicit: the service's defaults would number discs differently.
        disc: slots[i]!.disc,
        position: slots[i]!.position,
      };
    }),
  });
}

export function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
