// The events of each kind of write, built from what the write already holds, each recorded with
// one call inside the write's transaction (store/events.ts: recordEvent).
import type { Database } from 'better-sqlite3';
import type { ReleaseResource, TrackResource } from '../../contract/resources.js';
import type { ReleaseStatus, ReleaseType } from '../../contract/common.js';
import type { AudioInfo } from '../../audio/rules.js';
import type { Transition } from '../rules/state-machine.js';
import { recordEvent, releaseCatalogNumber, userName, type Actor } from '../store/events.js';
import { toReleaseResource, type Release } from '../store/releases.js';
import { toTrackResource, trackFile, type TrackRow } from '../store/tracks.js';
import type { UploadRow } from '../store/uploads.js';
import { releaseChanges, trackChanges } from './diff.js';

const about = (r: Release) => ({ userId: r.row.user_id, releaseId: r.row.id, catalogNumber: r.data.catalog_number });

export function recordCreated(
  db: Database,
  by: Actor,
  r: { userId: number; releaseId: number; catalogNumber: string | null; title: string; type: ReleaseType },
  at: string,
): void {
  const { title, type, ...ids } = r;
  recordEvent(db, { ...ids, type: 'release.created', actor: by, at, data: { title, type } });
}

export function recordDeleted(db: Database, by: Actor, r: Release, at: string): void {
  recordEvent(db, { ...about(r), type: 'release.deleted', actor: by, at, data: { status: r.row.status, title: r.row.title } });
}

/** The release as read before an edit: its row and stored data, and for an edit of the tracks, their rows. */
export interface BeforeEdit {
  release: Release;
  tracks: readonly TrackRow[] | undefined;
}

/**
 * What recordEdit compares with, taken before the edit: a copy of the row and the data parsed
 * again from the stored text (the edit changes the release's objects in place), and for an edit
 * of the tracks (the only one whose event lists them) the track rows the edit itself reads (it
 * changes none of them), so the event costs no second read.
 */
export function beforeEdit(r: Release, tracks?: readonly TrackRow[]): BeforeEdit {
  return { release: { row: { ...r.row }, data: JSON.parse(r.row.data) }, tracks };
}

/**
 * A track's file before the edit, as listTrackResources would have shown it: an edit of the tracks
 * writes no upload, so a track still naming the same upload shows the same file now; only a file
 * that changed is looked up.
 */
function fileBefore(db: Database, row: TrackRow, now: TrackResource | undefined): TrackResource['file'] {
  if (row.file_key === null) return null;
  if (now?.file && now.file.key === row.file_key) return now.file;
  return trackFile(db, row.file_key);
}

/**
 * An edit: release.updated with the fields it changed, or (an edit of the tracks) release.tracks_changed
 * with the tracks added, removed and changed. A write that changed nothing records nothing.
 */
export function recordEdit(db: Database, by: Actor, was: BeforeEdit, after: ReleaseResource, userId: number): void {
  // The release's own fields only: no tracks read (the count is not compared either).
  const before = toReleaseResource(db, was.release, false, after.track_count);
  const changes = releaseChanges(before, after);
  const base = { userId, releaseId: Number(after.id), catalogNumber: after.catalog_number, actor: by, at: after.updated_at };
  if (was.tracks === undefined) {
    if (changes.length > 0) recordEvent(db, { ...base, type: 'release.updated', data: { changes } });
    return;
  }
  const afterTracks = after.tracks ?? [];
  const now = new Map(afterTracks.map((t) => [t.id, t]));
  const tracksBefore = was.tracks.map((row) => toTrackResource(row, fileBefore(db, row, now.get(row.id))));
  const tracks = trackChanges(tracksBefore, afterTracks);
  if (changes.length + tracks.added.length + tracks.removed.length + tracks.changed.length === 0) return;
  recordEvent(db, { ...base, type: 'release.tracks_changed', data: { ...tracks, changes } });
}

/** A submit: codes the service assigned at it, as it assigned them. */
export function recordSubmitted(
  db: Database,
  by: Actor,
  r: Release,
  from: ReleaseStatus,
  at: string,
  assigned: { upc: string | null; isrcs: { track_id: number; isrc: string }[] },
): void {
  recordEvent(db, {
    ...about(r),
    type: 'release.submitted',
    actor: by,
    at,
    data: { from, to: 'in_review', notes: r.data.submission_notes ?? null, assigned },
  });
}

const TRANSITION_EVENTS = {
  approve: 'release.approved',
  withdraw: 'release.withdrawn',
  deliver: 'release.delivered',
  go_live: 'release.live',
  take_down: 'release.taken_down',
} as const;

/** A review or store step (a sandbox control or its auto-review); `r` as it is after the step. */
export function recordReviewStep(db: Database, by: Actor, r: Release, t: Exclude<Transition, 'submit'>, from: ReleaseStatus, at: string): void {
  const to = r.row.status;
  if (t === 'reject') {
    const review = r.data.review;
    recordEvent(db, { ...about(r), type: 'release.rejected', actor: by, at, data: { from, to, codes: review?.codes ?? [], notes: review?.notes ?? null } });
    return;
  }
  recordEvent(db, { ...about(r), type: TRANSITION_EVENTS[t], actor: by, at, data: { from, to } });
}

/** A file arrived for a release, stored and probed. */
export function recordUploadReady(db: Database, upload: UploadRow, info: AudioInfo & { size: number; sha256: string }, requestId: string, at: string): void {
  recordEvent(db, {
    type: 'upload.ready',
    userId: upload.user_id,
    releaseId: upload.release_id,
    catalogNumber: releaseCatalogNumber(db, upload.release_id),
    at,
    // The signed address is the credential: the upload's owner asked for it.
    actor: { kind: 'user', userId: upload.user_id, name: userName(db, upload.user_id), requestId },
    data: {
      key: upload.key,
      filename: upload.filename,
      format: info.format,
      sample_rate: info.sample_rate,
      bit_depth: info.bit_depth,
      channels: info.channels,
      duration_ms: info.duration_ms,
      size: info.size,
      sha256: info.sha256,
    },
  });
}
