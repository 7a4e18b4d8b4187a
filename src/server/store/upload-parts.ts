// The parts of uploads in parts (uploads/parts.ts), and the account's view of its uploads that no
// track names: listing them, discarding them. The parts' bytes live in one file per upload
// (store/uploads.ts `uploadPartsPath`); a row here says a part's bytes there were checked.
import type { Database } from 'better-sqlite3';
import type { AudioInfo } from '../../audio/rules.js';
import type { ServerModule } from '../handler.js';
import { uploadPartsMigrations } from '../db/upload-parts-migrations.js';
import { statement } from './statements.js';
import { namedByNothing, type UploadRow } from './uploads.js';

export interface PartRow {
  part: number;
  size: number;
  /** `crc32 <base64>` or `sha256 <base64>`, as its request declared it (and its bytes have). */
  checksum: string;
}

export function partsOf(db: Database, key: string): PartRow[] {
  return statement(db, 'SELECT part, size, checksum FROM upload_parts WHERE upload_key = ? ORDER BY part').all(key) as PartRow[];
}

export function partOf(db: Database, key: string, part: number): PartRow | undefined {
  return statement(db, 'SELECT part, size, checksum FROM upload_parts WHERE upload_key = ? AND part = ?').get(key, part) as PartRow | undefined;
}

/** The probed facts of a complete audio upload (what its upload address answered). */
export function audioFactsOf(db: Database, key: string): AudioInfo | undefined {
  return statement(db, "SELECT format, sample_rate, bit_depth, channels, duration_ms FROM uploads WHERE key = ? AND state = 'ready' AND kind = 'audio'").get(
    key,
  ) as AudioInfo | undefined;
}

/** Records a checked part and moves the upload's activity (its expiry counts from it). */
export function recordPart(db: Database, key: string, p: PartRow, nowIso: string): void {
  statement(db, 'INSERT OR REPLACE INTO upload_parts (upload_key, part, size, checksum, received_at) VALUES (?, ?, ?, ?, ?)').run(
    key,
    p.part,
    p.size,
    p.checksum,
    nowIso,
  );
  statement(db, 'UPDATE uploads SET active_at = ? WHERE key = ?').run(nowIso, key);
}

export function dropParts(db: Database, key: string): void {
  statement(db, 'DELETE FROM upload_parts WHERE upload_key = ?').run(key);
}

/** A new address for an upload being continued (for `releaseId`, where it moves): the row's expiry follows it, and the upload counts as active. */
export function renewUpload(db: Database, key: string, releaseId: number, expiresAt: string, nowIso: string): void {
  statement(db, 'UPDATE uploads SET release_id = ?, expires_at = ?, active_at = ? WHERE key = ?').run(releaseId, expiresAt, nowIso, key);
}

/** Whether a track or a release's cover names the upload. */
export function uploadIsAttached(db: Database, key: string): boolean {
  return (statement(db, `SELECT NOT (${namedByNothing('?')}) AS named`).get(key, key) as { named: number }).named === 1;
}

export interface UnattachedRow extends Pick<UploadRow, 'key' | 'release_id' | 'kind' | 'filename' | 'size' | 'state' | 'part_size' | 'created_at'> {
  received_bytes: number;
  /** The last byte's time: uploaded_at when complete, else the last part's. */
  updated_at: string;
}

// Complete uploads nothing names, and uploads in parts not complete (a single PUT not complete holds nothing: not listed).
const UNNAMED = namedByNothing('u.key');
const RECEIVING = "u.state != 'ready' AND u.part_size IS NOT NULL";
const COMPLETE = "u.state = 'ready'";

/** The account's uploads that nothing names: `receiving` (in parts, not complete), `complete`, or both; oldest first. */
export function unattachedUploadsOf(db: Database, userId: number, state: 'receiving' | 'complete' | undefined, keys?: readonly string[]): UnattachedRow[] {
  const which = state === 'receiving' ? RECEIVING : state === 'complete' ? COMPLETE : `((${RECEIVING}) OR (${COMPLETE}))`;
  const only = keys === undefined ? '' : ' AND u.key IN (SELECT value FROM json_each(?))';
  const sql = `SELECT u.key, u.release_id, u.kind, u.filename, u.size, u.state, u.part_size, u.created_at,
            CASE WHEN u.state = 'ready' THEN u.size ELSE (SELECT COALESCE(SUM(p.size), 0) FROM upload_parts p WHERE p.upload_key = u.key) END AS received_bytes,
            CASE WHEN u.state = 'ready' THEN COALESCE(u.uploaded_at, u.created_at) ELSE COALESCE(u.active_at, u.created_at) END AS updated_at
     FROM uploads u WHERE u.user_id = ? AND ${which} AND ${UNNAMED}${only} ORDER BY u.created_at, u.key`;
  const args: unknown[] = keys === undefined ? [userId] : [userId, JSON.stringify(keys)];
  return statement(db, sql).all(...args) as UnattachedRow[];
}

/** Which of `keys` are the account's uploads (any state). */
export function ownUploadKeys(db: Database, userId: number, keys: readonly string[]): Set<string> {
  const rows = statement(db, 'SELECT key FROM uploads WHERE user_id = ? AND key IN (SELECT value FROM json_each(?))').all(userId, JSON.stringify(keys)) as {
    key: string;
  }[];
  return new Set(rows.map((r) => r.key));
}

/** Deletes the rows of `keys` (the caller checked that nothing names them, in the same transaction); their files are the caller's. */
export function deleteUploadRows(db: Database, keys: readonly string[]): void {
  statement(db, 'DELETE FROM uploads WHERE key IN (SELECT value FROM json_each(?))').run(JSON.stringify(keys));
}

/** The upload_parts component: its own migrations (db/upload-parts-migrations.ts), after the core's and retention's. */
export const uploadPartsModule: ServerModule = {
  component: 'upload_parts',
  migrations: uploadPartsMigrations,
};
