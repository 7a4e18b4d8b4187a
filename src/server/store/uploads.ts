// Upload records: what the client declared (size, and sha256 unless it lets the service compute it), and once the bytes arrived, what the
// probe found. Files live at <dataDir>/uploads/files/<key>; partial files only in uploads/tmp.
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import type { AudioInfo } from '../../audio/rules.js';
import type { ReleaseStatus } from '../../contract/index.js';
import type { ServerModule } from '../handler.js';
import { uploadRetentionMigrations } from '../db/upload-retention-migrations.js';
import { statement } from './statements.js';

export interface UploadRow {
  key: string;
  user_id: number;
  release_id: number;
  filename: string;
  content_type: string;
  size: number;
  /** '' until the bytes arrive when the client declared no digest. */
  sha256: string;
  expires_at: string;
  state: 'pending' | 'ready' | 'rejected';
  /** 'image': a cover (store/artwork.ts); its facts in `image`, as JSON, once ready. */
  kind: 'audio' | 'image';
  image: string | null;
  reason: string | null;
  format: string | null;
  created_at: string;
  uploaded_at: string | null;
  /** An upload in parts (store/upload-parts.ts): every part this many bytes but the last; null for one PUT. */
  part_size: number | null;
  /** An upload in parts: when its last part arrived (or it was asked for); its expiry counts from here. */
  active_at: string | null;
  /** The digest its addresses are signed with ('' for none); null on rows from before, where it is `sha256`. */
  signed_sha256: string | null;
}

export const uploadsDir = (dataDir: string) => join(dataDir, 'uploads', 'files');
export const uploadsTmpDir = (dataDir: string) => join(dataDir, 'uploads', 'tmp');
export const uploadFilePath = (dataDir: string, key: string) => join(uploadsDir(dataDir), key);
/** An upload in parts: one file of the declared size, each part written at its offset (uploads/parts.ts). */
export const uploadPartsDir = (dataDir: string) => join(dataDir, 'uploads', 'parts');
export const uploadPartsPath = (dataDir: string, key: string) => join(uploadPartsDir(dataDir), key);
/** The digest an upload's addresses are signed with. */
export const signedSha256Of = (u: Pick<UploadRow, 'sha256' | 'signed_sha256'>): string => u.signed_sha256 ?? u.sha256;

export function insertUpload(
  db: Database,
  u: {
    key: string;
    user_id: number;
    release_id: number;
    filename: string;
    content_type: string;
    size: number;
    sha256: string;
    expires_at: string;
    kind?: UploadRow['kind'];
    part_size?: number | undefined;
  },
  nowIso: string,
): void {
  statement(
    db,
    `INSERT INTO uploads (key, user_id, release_id, filename, content_type, size, sha256, expires_at, created_at, kind, part_size, active_at, signed_sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    u.key,
    u.user_id,
    u.release_id,
    u.filename,
    u.content_type,
    u.size,
    u.sha256,
    u.expires_at,
    nowIso,
    u.kind ?? 'audio',
    u.part_size ?? null,
    u.part_size === undefined ? null : nowIso,
    u.sha256,
  );
}

export function findUpload(db: Database, key: string): UploadRow | undefined {
  return statement(db, 'SELECT * FROM uploads WHERE key = ?').get(key) as UploadRow | undefined;
}

/** `sha256`: the digest of the bytes received (the declared one, when one was declared). */
export function markUploadReady(db: Database, key: string, info: AudioInfo, sha256: string, nowIso: string): void {
  statement(
    db,
    // The digest the address was signed with is kept apart first (the right side reads the old row):
    // a PUT retried to the same address, its first answer lost, still carries that signature.
    `UPDATE uploads SET state = 'ready', reason = NULL, signed_sha256 = COALESCE(signed_sha256, sha256), sha256 = ?, format = ?, sample_rate = ?, bit_depth = ?, channels = ?, duration_ms = ?, uploaded_at = ?
     WHERE key = ?`,
  ).run(sha256, info.format, info.sample_rate, info.bit_depth, info.channels, info.duration_ms, nowIso, key);
}

/** A refused attempt leaves no file; the record keeps the reason, and the address can be retried. */
export function markUploadRefused(db: Database, key: string, reason: string): void {
  statement(db, "UPDATE uploads SET reason = ? WHERE key = ? AND state != 'ready'").run(reason, key);
}

export function uploadKeysOfRelease(db: Database, releaseId: number): string[] {
  return (statement(db, 'SELECT key FROM uploads WHERE release_id = ?').all(releaseId) as { key: string }[]).map((r) => r.key);
}

/** The status of the release an upload belongs to; undefined when the release no longer exists. */
export function uploadReleaseStatus(db: Database, key: string): ReleaseStatus | undefined {
  const row = statement(db, 'SELECT r.status FROM uploads u JOIN releases r ON r.id = u.release_id WHERE u.key = ?').get(key) as
    | { status: ReleaseStatus }
    | undefined;
  return row?.status;
}

// Retention (uploads/retention.ts). "Unattached": complete (ready) but named by no track and by no
// release's cover. Each check of "nothing names it" runs in the same statement as the delete, so an
// attach (PUT …/tracks, PATCH …/metadata, each in its own IMMEDIATE transaction) either commits
// first and keeps the file, or finds the row gone and answers "unknown upload key". The cover's
// look-up is the index releases_artwork_key (db/artwork-migrations.ts).
/**
 * "Nothing names the upload whose key is `key`" (a column or `?`): no track's file, no release's
 * cover. One text for every statement that keeps or deletes by it, so that a new place naming an
 * upload is added once.
 */
export const namedByNothing = (key: string) =>
  `NOT EXISTS (SELECT 1 FROM tracks t WHERE t.file_key = ${key}) AND NOT EXISTS (SELECT 1 FROM releases r WHERE json_extract(r.data, '$.artwork.file_key') = ${key})`;

const UNATTACHED = `state = 'ready' AND ${namedByNothing('uploads.key')}`;

/**
 * Bytes an account holds that no track names: its complete uploads (its own `exceptKey` left out:
 * a retry of it) and the parts held of its uploads in parts not complete yet.
 */
export function unattachedBytesOf(db: Database, userId: number, exceptKey: string): number {
  const row = statement(
    db,
    `SELECT (SELECT COALESCE(SUM(size), 0) FROM uploads WHERE user_id = ? AND key != ? AND ${UNATTACHED})
          + (SELECT COALESCE(SUM(p.size), 0) FROM upload_parts p JOIN uploads u ON u.key = p.upload_key WHERE u.user_id = ? AND u.state != 'ready') AS bytes`,
  ).get(userId, exceptKey, userId) as {
    bytes: number;
  };
  return row.bytes;
}

export interface RemovedUpload {
  key: string;
  size: number;
}

/** Deletes the rows of unattached complete uploads received before `beforeIso` (all of them with undefined); their files are the caller's to remove. */
export function deleteUnattachedUploads(db: Database, beforeIso: string | undefined): RemovedUpload[] {
  return (
    beforeIso === undefined
      ? statement(db, `DELETE FROM uploads WHERE ${UNATTACHED} RETURNING key, size`).all()
      : statement(db, `DELETE FROM uploads WHERE uploaded_at < ? AND ${UNATTACHED} RETURNING key, size`).all(beforeIso)
  ) as RemovedUpload[];
}

/**
 * Deletes rows of uploads that never completed and whose address expired before `beforeIso`
 * (they hold no file). An upload still arriving on such a row finds it gone at its last step
 * and keeps nothing (uploads/route.ts asks for the row inside the transaction that moves the file).
 */
export function deleteAbandonedUploads(db: Database, beforeIso: string): RemovedUpload[] {
  // An upload in parts expires from its last part (it may move for longer than its address lives: a resume asks for a new one).
  return statement(
    db,
    "DELETE FROM uploads WHERE state != 'ready' AND (CASE WHEN part_size IS NULL THEN expires_at ELSE active_at END) < ?" +
      ` AND ${namedByNothing('uploads.key')} RETURNING key, size`,
  ).all(beforeIso) as RemovedUpload[];
}

/** Which of `keys` have a row. */
export function knownUploadKeys(db: Database, keys: readonly string[]): Set<string> {
  if (keys.length === 0) return new Set();
  const rows = statement(db, 'SELECT key FROM uploads WHERE key IN (SELECT value FROM json_each(?))').all(JSON.stringify(keys)) as { key: string }[];
  return new Set(rows.map((r) => r.key));
}

/** The retention component's indexes: the look-ups above are index ranges, not scans (its own component, migrations in db/upload-retention-migrations.ts). */
export const uploadRetentionModule: ServerModule = {
  component: 'upload_retention',
  migrations: uploadRetentionMigrations,
};
