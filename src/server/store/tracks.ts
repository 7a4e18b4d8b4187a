// Tracks of a release. A track's file is the upload it names (file_key), read through a join, so
// the file facts always come from the probe, never from the client.
import type { Database } from 'better-sqlite3';
import type { TrackResource } from '../../contract/index.js';
import { statement } from './statements.js';

type T = TrackResource;

export interface TrackData {
  title: string;
  version: string | null;
  artists: T['artists'];
  contributors: T['contributors'];
  explicit: T['explicit'];
  audio_language: string | null;
  preview_start_seconds: number | null;
}

export interface TrackRow {
  id: number;
  release_id: number;
  disc: number;
  position: number;
  isrc: string | null;
  file_key: string | null;
  data: string;
  created_at: string;
  updated_at: string;
}

interface JoinedRow extends TrackRow {
  u_filename: string | null;
  u_format: 'wav' | 'flac' | 'aiff' | null;
  u_sample_rate: number | null;
  u_bit_depth: number | null;
  u_channels: number | null;
  u_duration_ms: number | null;
  u_size: number | null;
  u_sha256: string | null;
  u_state: 'pending' | 'ready' | 'rejected' | null;
}

/** The upload's columns of the join. */
type UploadColumns = Omit<JoinedRow, keyof TrackRow>;

const UPLOAD_COLUMNS = `u.filename AS u_filename, u.format AS u_format, u.sample_rate AS u_sample_rate, u.bit_depth AS u_bit_depth,
  u.channels AS u_channels, u.duration_ms AS u_duration_ms, u.size AS u_size, u.sha256 AS u_sha256, u.state AS u_state`;

const SELECT = `SELECT t.*, ${UPLOAD_COLUMNS} FROM tracks t LEFT JOIN uploads u ON u.key = t.file_key`;

/** A track's file facts from its upload (the join's columns), or null: no file, or none probed. */
function fileOf(r: UploadColumns & { file_key: string | null }): T['file'] {
  return r.file_key !== null && r.u_state !== null && r.u_format !== null
    ? {
        key: r.file_key,
        filename: r.u_filename ?? '',
        format: r.u_format,
        sample_rate: r.u_sample_rate ?? 0,
        bit_depth: r.u_bit_depth ?? 0,
        channels: r.u_channels ?? 0,
        duration_ms: r.u_duration_ms ?? 0,
        size: r.u_size ?? 0,
        sha256: r.u_sha256 ?? '',
        state: r.u_state,
      }
    : null;
}

/** The track as the wire shows it, from its row and its file's facts (read with the row, or by trackFile). */
export function toTrackResource(r: TrackRow, file: T['file']): TrackResource {
  const d = JSON.parse(r.data) as TrackData;
  return {
    id: r.id,
    release_id: r.release_id,
    position: r.position,
    disc: r.disc,
    title: d.title,
    version: d.version,
    artists: d.artists,
    contributors: d.contributors,
    isrc: r.isrc,
    explicit: d.explicit,
    audio_language: d.audio_language,
    preview_start_seconds: d.preview_start_seconds,
    file,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const toResource = (r: JoinedRow): TrackResource => toTrackResource(r, fileOf(r));

/** The file facts a track naming upload `key` shows, as listTrackResources reads them. */
export function trackFile(db: Database, key: string): T['file'] {
  const u = statement(db, `SELECT ${UPLOAD_COLUMNS} FROM uploads u WHERE u.key = ?`).get(key) as UploadColumns | undefined;
  return u ? fileOf({ file_key: key, ...u }) : null;
}

export function listTrackResources(db: Database, releaseId: number): TrackResource[] {
  const rows = statement(db, `${SELECT} WHERE t.release_id = ? ORDER BY t.disc, t.position, t.id`).all(releaseId) as JoinedRow[];
  return rows.map(toResource);
}

/** The tracks of several releases (a page of a list; ownership checked by the caller) in one query, by release. */
export function trackResourcesOf(db: Database, releaseIds: readonly number[]): Map<number, TrackResource[]> {
  const byRelease = new Map<number, TrackResource[]>(releaseIds.map((id) => [id, []]));
  if (releaseIds.length === 0) return byRelease;
  const rows = statement(db, `${SELECT} WHERE t.release_id IN (SELECT value FROM json_each(?)) ORDER BY t.release_id, t.disc, t.position, t.id`).all(
    JSON.stringify(releaseIds),
  ) as JoinedRow[];
  for (const row of rows) byRelease.get(row.release_id)?.push(toResource(row));
  return byRelease;
}

export function findTrackResource(db: Database, releaseId: number, trackId: number): TrackResource | undefined {
  const row = statement(db, `${SELECT} WHERE t.release_id = ? AND t.id = ?`).get(releaseId, trackId) as JoinedRow | undefined;
  return row ? toResource(row) : undefined;
}

export function listTrackRows(db: Database, releaseId: number): TrackRow[] {
  return statement(db, 'SELECT * FROM tracks WHERE release_id = ? ORDER BY disc, position, id').all(releaseId) as TrackRow[];
}

/** The tracks with an ISRC of several releases (ownership checked by the caller): one query for a batch. */
export function tracksWithIsrcOf(db: Database, releaseIds: readonly number[]): TrackRow[] {
  if (releaseIds.length === 0) return [];
  return statement(
    db,
    'SELECT * FROM tracks WHERE release_id IN (SELECT value FROM json_each(?)) AND isrc IS NOT NULL ORDER BY release_id, disc, position, id',
  ).all(JSON.stringify(releaseIds)) as TrackRow[];
}

export interface TrackWrite {
  id?: number;
  disc: number;
  position: number;
  isrc: string | null;
  file_key: string | null;
  data: TrackData;
}

/** Replaces the release's whole track list: listed ids are updated, new ones inserted, the rest deleted. */
export function replaceTracks(db: Database, releaseId: number, tracks: TrackWrite[], nowIso: string): void {
  const keep = tracks.filter((t) => t.id !== undefined).map((t) => t.id!);
  const existing = listTrackRows(db, releaseId);
  const del = statement(db, 'DELETE FROM tracks WHERE id = ?');
  for (const row of existing) if (!keep.includes(row.id)) del.run(row.id);
  const upd = statement(db, 'UPDATE tracks SET disc = ?, position = ?, isrc = ?, file_key = ?, data = ?, updated_at = ? WHERE id = ?');
  const ins = statement(db, 'INSERT INTO tracks (release_id, disc, position, isrc, file_key, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  for (const t of tracks) {
    const json = JSON.stringify(t.data);
    if (t.id !== undefined) upd.run(t.disc, t.position, t.isrc, t.file_key, json, nowIso, t.id);
    else ins.run(releaseId, t.disc, t.position, t.isrc, t.file_key, json, nowIso, nowIso);
  }
}

export function setTrackFile(db: Database, trackId: number, fileKey: string, nowIso: string): void {
  statement(db, 'UPDATE tracks SET file_key = ?, updated_at = ? WHERE id = ?').run(fileKey, nowIso, trackId);
}

export function setTrackIsrc(db: Database, trackId: number, isrc: string, nowIso: string): void {
  statement(db, 'UPDATE tracks SET isrc = ?, updated_at = ? WHERE id = ?').run(isrc, nowIso, trackId);
}
