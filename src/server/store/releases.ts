// Releases: filterable columns (status, type, title, upc) plus the rest of the release as JSON.
// Every read is scoped by user_id, so another user's release is simply not found.
import { artworkResourceOf, type StoredArtwork } from './artwork.js';
import type { Database } from 'better-sqlite3';
import type { ReleaseResource, ReleaseStatus, ReleaseType, TrackResource } from '../../contract/index.js';
import { checkUpc } from '../../codes/index.js';
import { catalogNumberKey } from '../../contract/catalog-number.js';
import { notFound } from '../handler.js';
import { listTrackResources } from './tracks.js';
import { statement } from './statements.js';

type R = ReleaseResource;

/** The part of a release kept as JSON. */
export interface ReleaseData {
  version: string | null;
  artists: R['artists'];
  label: string;
  catalog_number: string | null;
  genre: string | null;
  subgenre: string | null;
  language: string | null;
  p_line: R['p_line'];
  c_line: R['c_line'];
  original_release_date: string | null;
  explicit: R['explicit'];
  artwork: StoredArtwork | null;
  delivery: R['delivery'];
  video: R['video'];
  review: R['review'];
  /** Absent in releases stored before it existed: read as null. */
  submission_notes?: string | null;
  /** Sandbox auto-review: what happens to the release in review, and when (never on the wire). */
  auto_review?: { outcome: 'approve' | 'reject' | 'live'; due_at: string };
}

export interface ReleaseRow {
  id: number;
  user_id: number;
  status: ReleaseStatus;
  type: ReleaseType;
  title: string;
  upc: string | null;
  upc_gtin14: string | null;
  data: string;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
}

export interface Release {
  row: ReleaseRow;
  data: ReleaseData;
}

export const defaultDelivery = (): R['delivery'] => ({
  platforms: 'all',
  territories: { mode: 'worldwide', countries: [] },
  release_date: null,
  preorder_date: null,
  price_tier: null,
});

export const defaultVideo = (): R['video'] => ({ enabled: false, art_tracks: false, content_id: { enabled: false, policy: 'monetize' } });

/** Empty strings mean "not set" (an empty UPC is assigned at submit). */
export function blankToNull(v: string | null | undefined): string | null {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** Stores a UPC compact when it is valid (digits only), as given otherwise, so submit can say why. */
export function upcColumns(upc: string | null): { upc: string | null; upc_gtin14: string | null } {
  if (upc === null) return { upc: null, upc_gtin14: null };
  const r = checkUpc(upc);
  return r.valid ? { upc: r.normalized, upc_gtin14: r.gtin14 } : { upc, upc_gtin14: null };
}

/** What a search looks in: title, artist names, UPC and catalog number (in its key form), lowercased. */
export function searchText(title: string, data: ReleaseData, upc: string | null): string {
  return [title, ...data.artists.map((a) => a.name), upc ?? '', catalogKey(data.catalog_number) ?? ''].join('\n').toLowerCase();
}

/** The natural key of a release within an account: its catalog number in the contract's key form; null for none. */
export function catalogKey(catalogNumber: string | null | undefined): string | null {
  const key = catalogNumber == null ? '' : catalogNumberKey(catalogNumber);
  return key === '' ? null : key;
}

/** Another of the user's releases holding this catalog number (normalised), if any. */
export function releaseWithCatalogNumber(
  db: Database,
  userId: number,
  catalogNumber: string | null,
  exceptId?: number,
): { id: number; status: ReleaseStatus } | undefined {
  const key = catalogKey(catalogNumber);
  if (key === null) return undefined;
  return statement(db, 'SELECT id, status FROM releases WHERE user_id = ? AND catalog_key = ? AND id != ? ORDER BY id LIMIT 1').get(
    userId,
    key,
    exceptId ?? 0,
  ) as { id: number; status: ReleaseStatus } | undefined;
}

export function insertRelease(
  db: Database,
  userId: number,
  fields: { type: ReleaseType; title: string; upc: string | null },
  data: ReleaseData,
  nowIso: string,
): number {
  const codes = upcColumns(fields.upc);
  const info = statement(
    db,
    `INSERT INTO releases (user_id, status, type, title, upc, upc_gtin14, catalog_key, search_text, data, created_at, updated_at)
     VALUES (?, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    userId,
    fields.type,
    fields.title,
    codes.upc,
    codes.upc_gtin14,
    catalogKey(data.catalog_number),
    searchText(fields.title, data, codes.upc),
    JSON.stringify(data),
    nowIso,
    nowIso,
  );
  return Number(info.lastInsertRowid);
}

export function findRelease(db: Database, userId: number, id: number): Release | undefined {
  const row = statement(db, 'SELECT * FROM releases WHERE id = ? AND user_id = ?').get(id, userId) as ReleaseRow | undefined;
  return row ? { row, data: JSON.parse(row.data) as ReleaseData } : undefined;
}

export function getRelease(db: Database, userId: number, id: number): Release {
  const r = findRelease(db, userId, id);
  if (!r) throw notFound(`release ${id}`);
  return r;
}

/** Writes a changed release back; `status`/`submitted_at` only when given. */
export function saveRelease(db: Database, r: Release, nowIso: string, changes: { status?: ReleaseStatus; submitted_at?: string | null } = {}): void {
  const codes = upcColumns(r.row.upc);
  const status = changes.status ?? r.row.status;
  const submittedAt = changes.submitted_at !== undefined ? changes.submitted_at : r.row.submitted_at;
  statement(
    db,
    `UPDATE releases SET status = ?, type = ?, title = ?, upc = ?, upc_gtin14 = ?, catalog_key = ?, search_text = ?, data = ?, updated_at = ?,
     submitted_at = ? WHERE id = ?`,
  ).run(
    status,
    r.row.type,
    r.row.title,
    codes.upc,
    codes.upc_gtin14,
    catalogKey(r.data.catalog_number),
    searchText(r.row.title, r.data, codes.upc),
    JSON.stringify(r.data),
    nowIso,
    submittedAt,
    r.row.id,
  );
}

/**
 * The release as the wire shows it. With tracks (`true`: read here; a list passes the ones it read
 * for its whole page in one query), or with `trackCount` already known (a list reads the counts in
 * its own query); otherwise one count query.
 */
export function toReleaseResource(db: Database, r: Release, withTracks: boolean | TrackResource[], trackCount?: number): ReleaseResource {
  const tracks = withTracks === true ? listTrackResources(db, r.row.id) : withTracks === false ? undefined : withTracks;
  const count = tracks
    ? tracks.length
    : (trackCount ?? (statement(db, 'SELECT COUNT(*) AS n FROM tracks WHERE release_id = ?').get(r.row.id) as { n: number }).n);
  const d = r.data;
  return {
    id: r.row.id,
    status: r.row.status,
    type: r.row.type,
    title: r.row.title,
    version: d.version,
    artists: d.artists,
    label: d.label,
    catalog_number: d.catalog_number,
    upc: r.row.upc,
    genre: d.genre,
    subgenre: d.subgenre,
    language: d.language,
    p_line: d.p_line,
    c_line: d.c_line,
    original_release_date: d.original_release_date,
    explicit: d.explicit,
    artwork: artworkResourceOf(d.artwork),
    delivery: d.delivery,
    video: d.video,
    track_count: count,
    ...(tracks ? { tracks } : {}),
    review: d.review,
    submission_notes: d.submission_notes ?? null,
    created_at: r.row.created_at,
    updated_at: r.row.updated_at,
    submitted_at: r.row.submitted_at,
  };
}

export interface ListFilter {
  status?: ReleaseStatus;
  type?: ReleaseType;
  search?: string;
  catalogNumber?: string;
  page: number;
  perPage: number;
}

/** A list's row: the release and its number of tracks (counted in the same query). */
export interface ListedRelease extends Release {
  trackCount: number;
}

/** Shorter needles than a trigram cannot use the search indexes (see below). */
const TRIGRAM = 3;

/** Every code point past this one: `suffix < needle + AFTER` bounds a prefix range. */
const AFTER = String.fromCodePoint(0x10ffff);

/**
 * The search's candidates, then the check. Words (title, artist names) come from the trigram
 * index releases_search: the needle's trigrams, every third one and the last, all present. Codes
 * (UPC, catalog key) come from release_code_suffixes: the suffixes that begin with the needle.
 * Each candidate is then checked against search_text (instr), so the answer is exactly the
 * releases whose search text holds the needle, as the plain scan gave. A needle too short for
 * a trigram, or spanning two fields (a line break), is looked for with that scan (LIKE).
 */
function searchCondition(userId: number, needle: string): { sql: string; args: unknown[] } {
  const chars = [...needle];
  if (chars.length < TRIGRAM || needle.includes('\n')) {
    // LIKE wildcards in the search text are taken literally.
    return { sql: "r.search_text LIKE ? ESCAPE '\\'", args: [`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] };
  }
  const trigrams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= chars.length; i += TRIGRAM) trigrams.add(chars.slice(i, i + TRIGRAM).join(''));
  trigrams.add(chars.slice(-TRIGRAM).join(''));
  const match = [...trigrams].map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
  return {
    sql: `r.id IN (SELECT rowid FROM releases_search WHERE releases_search MATCH ?
                   UNION SELECT release_id FROM release_code_suffixes WHERE user_id = ? AND suffix >= ? AND suffix < ?)
          AND instr(r.search_text, ?) > 0`,
    args: [match, userId, needle, needle + AFTER, needle],
  };
}

/**
 * One page of the user's releases, newest first, and how many match. Every filter is served by an
 * index (db/migrations.ts): status and type by (user_id, status|type, id), with the totals read from
 * release_counts; the catalog number by its key; the search by the indexes of searchCondition.
 */
export function listReleases(db: Database, userId: number, f: ListFilter): { rows: ListedRelease[]; total: number } {
  const where = ['r.user_id = ?'];
  const args: unknown[] = [userId];
  if (f.status) {
    where.push('r.status = ?');
    args.push(f.status);
  }
  if (f.type) {
    where.push('r.type = ?');
    args.push(f.type);
  }
  const needle = f.search ? f.search.toLowerCase() : '';
  if (needle !== '') {
    const search = searchCondition(userId, needle);
    where.push(search.sql);
    args.push(...search.args);
  }
  const key = catalogKey(f.catalogNumber);
  if (key !== null) {
    where.push('r.catalog_key = ?');
    args.push(key);
  }
  const clause = where.join(' AND ');
  const total =
    needle === '' && key === null
      ? countByStatusAndType(db, userId, f)
      : (statement(db, `SELECT COUNT(*) AS n FROM releases r WHERE ${clause}`).get(...args) as { n: number }).n;
  const rows = statement(
    db,
    `SELECT r.*, (SELECT COUNT(*) FROM tracks t WHERE t.release_id = r.id) AS track_count
     FROM releases r WHERE ${clause} ORDER BY r.id DESC LIMIT ? OFFSET ?`,
  ).all(...args, f.perPage, (f.page - 1) * f.perPage) as (ReleaseRow & { track_count: number })[];
  return {
    rows: rows.map(({ track_count, ...row }) => ({ row, data: JSON.parse(row.data) as ReleaseData, trackCount: track_count })),
    total,
  };
}

/** How many of the user's releases have this status and/or type: a sum over release_counts, whatever the catalog's size. */
function countByStatusAndType(db: Database, userId: number, f: ListFilter): number {
  const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM release_counts WHERE user_id = ?${f.status ? ' AND status = ?' : ''}${f.type ? ' AND type = ?' : ''}`;
  const args: unknown[] = [userId];
  if (f.status) args.push(f.status);
  if (f.type) args.push(f.type);
  return (statement(db, sql).get(...args) as { n: number }).n;
}

/** A release holding a product code, as a conflict names it. */
export interface UpcHolder {
  id: number;
  status: ReleaseStatus;
  title: string;
  catalog_number: string | null;
  upc_gtin14: string;
}

/**
 * The user's releases holding any of these product codes (padded form), oldest first: one query
 * for a whole batch of codes (the list goes in as one JSON parameter, so the statement is cached).
 */
export function releasesWithUpcs(db: Database, userId: number, gtin14s: readonly string[]): UpcHolder[] {
  if (gtin14s.length === 0) return [];
  return statement(
    db,
    `SELECT id, status, title, json_extract(data, '$.catalog_number') AS catalog_number, upc_gtin14 FROM releases
     WHERE user_id = ? AND upc_gtin14 IN (SELECT value FROM json_each(?)) ORDER BY id`,
  ).all(userId, JSON.stringify(gtin14s)) as UpcHolder[];
}

/** Another of the user's releases holding the same product code (padded comparison), if any. */
export function releaseWithUpc(db: Database, userId: number, gtin14: string, exceptId?: number): UpcHolder | undefined {
  return releasesWithUpcs(db, userId, [gtin14]).find((r) => r.id !== exceptId);
}

/** Which of these ids are releases of the user: one query for a batch. */
export function ownedReleaseIds(db: Database, userId: number, ids: readonly number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const rows = statement(db, 'SELECT id FROM releases WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))').all(userId, JSON.stringify(ids)) as {
    id: number;
  }[];
  return new Set(rows.map((r) => r.id));
}

/** Ids of the user's releases in review whose sandbox auto-review is due at `nowIso`. */
export function dueAutoReviews(db: Database, userId: number, nowIso: string): number[] {
  const rows = statement(
    db,
    // The expression and the status test are those of the partial index releases_review_due.
    `SELECT id FROM releases WHERE user_id = ? AND status = 'in_review'
     AND json_extract(data, '$.auto_review.due_at') <= ? ORDER BY id`,
  ).all(userId, nowIso) as { id: number }[];
  return rows.map((row) => row.id);
}

/** When the user's next auto-review falls due (ISO time), or null when none is pending: one step of the same index. */
export function nextAutoReviewDue(db: Database, userId: number): string | null {
  const row = statement(db, `SELECT MIN(json_extract(data, '$.auto_review.due_at')) AS due FROM releases WHERE user_id = ? AND status = 'in_review'`).get(
    userId,
  ) as { due: string | null };
  return row.due;
}

export function deleteReleaseRow(db: Database, id: number): void {
  statement(db, 'DELETE FROM releases WHERE id = ?').run(id);
}
