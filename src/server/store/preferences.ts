// Artist preferences, label settings and label-managed artists. Every row belongs to one user;
// reads and writes always filter by user_id, so another user's artist is simply "not found".
import type { Database } from 'better-sqlite3';
import type { ArtistPlatformResult, ArtistPreferencesData, LabelArtistResource, PreferenceArtistItem } from '../../contract/resources.js';
import { validationFailed, type ServerModule } from '../handler.js';
import { preferencesMigrations as migrations } from '../db/preferences-migrations.js';
import { ARTIST_PLATFORMS, type ArtistPlatform } from '../artists/platforms.js';
import { foldName } from '../artists/search.js';
import type { SeededArtistDirectory } from '../artists/seeded.js';
import { statement } from './statements.js';

/** Per platform: an existing profile (snapshotted when chosen), or "create a new profile". */
export interface PlatformChoice {
  platform: ArtistPlatform;
  mode: 'existing' | 'new';
  profile: ArtistPlatformResult | null;
}

export const preferencesModule: ServerModule = { component: 'preferences', migrations };

/** Choices in the contract's platform order; later entries replace earlier ones per platform. */
export function mergeChoices(existing: readonly PlatformChoice[], incoming: readonly PlatformChoice[]): PlatformChoice[] {
  const byPlatform = new Map<ArtistPlatform, PlatformChoice>();
  for (const c of [...existing, ...incoming]) byPlatform.set(c.platform, c);
  return ARTIST_PLATFORMS.flatMap((p) => {
    const c = byPlatform.get(p);
    return c ? [c] : [];
  });
}

/** Profiles snapshotted before `handle` was on the wire have none: their handle is not known. */
const parseChoices = (json: string): PlatformChoice[] =>
  (JSON.parse(json) as PlatformChoice[]).map((c) => (c.profile && c.profile.handle === undefined ? { ...c, profile: { ...c.profile, handle: null } } : c));

// ---------------------------------------------------------------- artist account

interface UserNames {
  name: string;
  kind: string;
  label_name: string | null;
  artist_name: string | null;
}

function userNames(db: Database, userId: number): UserNames {
  const row = statement(db, 'SELECT name, kind, label_name, artist_name FROM users WHERE id = ?').get(userId) as UserNames | undefined;
  if (!row) throw new Error(`user ${userId} vanished`);
  return row;
}

export function getArtistPreferences(db: Database, userId: number): ArtistPreferencesData {
  const u = userNames(db, userId);
  const row = statement(db, 'SELECT platforms, updated_at FROM artist_preferences WHERE user_id = ?').get(userId) as
    | { platforms: string; updated_at: string }
    | undefined;
  return {
    artist_name: u.artist_name,
    platforms: row ? parseChoices(row.platforms) : [],
    updated_at: row?.updated_at ?? null,
  };
}

/** Partial update: platforms not mentioned keep their choice; the artist name lives on the user. */
export function saveArtistPreferences(
  db: Database,
  userId: number,
  change: { artist_name?: string | undefined; platforms?: PlatformChoice[] | undefined },
  now: Date,
): void {
  db.transaction(() => {
    const current = getArtistPreferences(db, userId);
    const platforms = mergeChoices(current.platforms, change.platforms ?? []);
    statement(
      db,
      `INSERT INTO artist_preferences (user_id, platforms, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET platforms = excluded.platforms, updated_at = excluded.updated_at`,
    ).run(userId, JSON.stringify(platforms), now.toISOString());
    if (change.artist_name !== undefined) statement(db, 'UPDATE users SET artist_name = ? WHERE id = ?').run(change.artist_name, userId);
  })();
}

// ---------------------------------------------------------------- label account

export interface LabelSettingsData {
  name: string;
  default_p_line_owner: string | null;
  default_c_line_owner: string | null;
  default_genre: string | null;
  default_language: string | null;
}

export function getLabelSettings(db: Database, userId: number): LabelSettingsData {
  const u = userNames(db, userId);
  const row = statement(db, 'SELECT default_p_line_owner, default_c_line_owner, default_genre, default_language FROM label_settings WHERE user_id = ?').get(
    userId,
  ) as Omit<LabelSettingsData, 'name'> | undefined;
  return {
    name: u.label_name ?? u.name,
    default_p_line_owner: row?.default_p_line_owner ?? null,
    default_c_line_owner: row?.default_c_line_owner ?? null,
    default_genre: row?.default_genre ?? null,
    default_language: row?.default_language ?? null,
  };
}

export type LabelSettingsChange = Partial<{ [K in keyof LabelSettingsData]: K extends 'name' ? string : string | null }>;

export interface LabelArtistChange {
  /** Update this artist (already checked to belong to the user); without it, add or match by name. */
  id?: number;
  name: string;
  platforms?: PlatformChoice[];
}

interface LabelArtistRow {
  id: number;
  user_id: number;
  name: string;
  platforms: string;
  created_at: string;
  updated_at: string;
}

/**
 * Saves label settings and artists in one transaction: all or nothing. An artist given without
 * an id whose name matches one the label already manages (case- and accent-insensitively)
 * updates that artist instead of adding a twin, so re-running the same submit changes nothing.
 */
export function saveLabelPreferences(
  db: Database,
  userId: number,
  settings: LabelSettingsChange,
  artists: readonly LabelArtistChange[],
  now: Date,
): { added: number; updated: number } {
  const nowIso = now.toISOString();
  return db.transaction(() => {
    const current = getLabelSettings(db, userId);
    const next = { ...current, ...settings };
    statement(
      db,
      `INSERT INTO label_settings (user_id, default_p_line_owner, default_c_line_owner, default_genre, default_language, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET default_p_line_owner = excluded.default_p_line_owner,
         default_c_line_owner = excluded.default_c_line_owner, default_genre = excluded.default_genre,
         default_language = excluded.default_language, updated_at = excluded.updated_at`,
    ).run(userId, next.default_p_line_owner, next.default_c_line_owner, next.default_genre, next.default_language, nowIso);
    if (settings.name !== undefined) statement(db, 'UPDATE users SET label_name = ? WHERE id = ?').run(settings.name, userId);

    let added = 0;
    let updated = 0;
    const byId = statement(db, 'SELECT * FROM label_artists WHERE id = ? AND user_id = ?');
    const byName = statement(db, 'SELECT * FROM label_artists WHERE user_id = ? AND name_folded = ? ORDER BY id LIMIT 1');
    const update = statement(db, 'UPDATE label_artists SET name = ?, name_folded = ?, platforms = ?, updated_at = ? WHERE id = ?');
    const insert = statement(db, 'INSERT INTO label_artists (user_id, name, name_folded, platforms, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [i, a] of artists.entries()) {
      const folded = foldName(a.name);
      const existing = (a.id !== undefined ? byId.get(a.id, userId) : byName.get(userId, folded)) as LabelArtistRow | undefined;
      // Checked by the handler, but a slow profile lookup lets another request remove it meanwhile.
      if (a.id !== undefined && !existing) throw validationFailed({ [`artists.${i}.id`]: [`you manage no artist ${a.id}; see GET /preferences/label`] });
      if (existing) {
        const platforms = mergeChoices(parseChoices(existing.platforms), a.platforms ?? []);
        update.run(a.name, folded, JSON.stringify(platforms), nowIso, existing.id);
        updated++;
      } else {
        insert.run(userId, a.name, folded, JSON.stringify(mergeChoices([], a.platforms ?? [])), nowIso, nowIso);
        added++;
      }
    }
    return { added, updated };
  })();
}

/** release_count: releases of the same user that credit this artist by id. */
const RELEASE_COUNT = `(SELECT COUNT(*) FROM releases r
  WHERE r.user_id = la.user_id AND EXISTS (
    SELECT 1 FROM json_each(r.data, '$.artists') c
    WHERE CAST(json_extract(c.value, '$.artist_id') AS TEXT) = CAST(la.id AS TEXT)))`;

function toResource(row: LabelArtistRow & { release_count: number }): LabelArtistResource {
  return {
    id: row.id,
    name: row.name,
    platforms: parseChoices(row.platforms),
    release_count: row.release_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function labelArtistExists(db: Database, userId: number, id: number): boolean {
  return statement(db, 'SELECT 1 FROM label_artists WHERE id = ? AND user_id = ?').get(id, userId) !== undefined;
}

export function getLabelArtist(db: Database, userId: number, id: number): LabelArtistResource | undefined {
  const row = statement(db, `SELECT la.*, ${RELEASE_COUNT} AS release_count FROM label_artists la WHERE la.id = ? AND la.user_id = ?`).get(id, userId) as
    | (LabelArtistRow & { release_count: number })
    | undefined;
  return row && toResource(row);
}

/** One page of the label's artists, by name; `search` matches anywhere in the folded name. */
export function listLabelArtists(
  db: Database,
  userId: number,
  options: { search?: string | undefined; page: number; perPage: number },
): { artists: LabelArtistResource[]; total: number } {
  const folded = options.search === undefined ? '' : foldName(options.search);
  const where = `la.user_id = ? AND (? = '' OR instr(la.name_folded, ?) > 0)`;
  const args = [userId, folded, folded];
  const total = (statement(db, `SELECT COUNT(*) AS n FROM label_artists la WHERE ${where}`).get(...args) as { n: number }).n;
  const rows = statement(
    db,
    `SELECT la.*, ${RELEASE_COUNT} AS release_count FROM label_artists la WHERE ${where} ORDER BY la.name_folded, la.id LIMIT ? OFFSET ?`,
  ).all(...args, options.perPage, (options.page - 1) * options.perPage) as (LabelArtistRow & { release_count: number })[];
  return { artists: rows.map(toResource), total };
}

export function removeLabelArtist(db: Database, userId: number, id: number): string | undefined {
  return db.transaction(() => {
    const row = statement(db, 'SELECT name FROM label_artists WHERE id = ? AND user_id = ?').get(id, userId) as { name: string } | undefined;
    if (row) statement(db, 'DELETE FROM label_artists WHERE id = ?').run(id);
    return row?.name;
  })();
}

/**
 * A label's artists with the number of its releases crediting each by id, in one statement: the
 * releases' credits are read once and grouped (not one count per artist).
 */
const ARTISTS_WITH_COUNTS = `SELECT la.*, COALESCE(c.n, 0) AS release_count FROM label_artists la
  LEFT JOIN (
    SELECT CAST(json_extract(a.value, '$.artist_id') AS INTEGER) AS artist_id, COUNT(DISTINCT r.id) AS n
    FROM releases r, json_each(r.data, '$.artists') a
    WHERE r.user_id = ? AND json_extract(a.value, '$.artist_id') IS NOT NULL
    GROUP BY 1
  ) c ON c.artist_id = la.id
  WHERE la.user_id = ? ORDER BY la.name_folded, la.id`;

/** The artists a user can put on a release: the artist account itself, or a label's artists. */
export function preferenceArtists(db: Database, userId: number): PreferenceArtistItem[] {
  const u = userNames(db, userId);
  if (u.kind === 'artist') {
    const prefs = getArtistPreferences(db, userId);
    // Every release of an artist account is its own: the sum the triggers keep, not a count of rows.
    const { n } = statement(db, 'SELECT COALESCE(SUM(n), 0) AS n FROM release_counts WHERE user_id = ?').get(userId) as { n: number };
    return [{ id: userId, name: prefs.artist_name ?? u.name, source: 'self', platforms: prefs.platforms, release_count: n }];
  }
  const rows = statement(db, ARTISTS_WITH_COUNTS).all(userId, userId) as (LabelArtistRow & { release_count: number })[];
  return rows.map((r) => ({ id: r.id, name: r.name, source: 'label', platforms: parseChoices(r.platforms), release_count: r.release_count }));
}

// ---------------------------------------------------------------- sandbox seed

/** Label artists of the sandbox label: names of anchor profiles of the seeded directory. */
const SEED_LABEL_ARTISTS: readonly { name: string; newOn?: readonly ArtistPlatform[] }[] = [
  { name: 'Lena Voss' },
  { name: 'The Paper Lanterns', newOn: ['store_c'] },
  { name: 'Åsa Lindqvist' },
  { name: 'Kaito Nakamura' },
  { name: 'Glass Harbor', newOn: ['video_b', 'store_c'] },
];

/**
 * Gives the sandbox label account a small roster linked to directory profiles, once per data
 * directory (removing a seeded artist is not undone by the next start). Idempotent; call it
 * after the sandbox users exist, inside or outside a transaction. `seeded` is asked only when the
 * roster is written (building the directory costs ~20 ms; later starts skip it).
 */
export function seedPreferences(db: Database, users: { label: number }, now: Date, seeded: () => SeededArtistDirectory): void {
  db.transaction(() => {
    const row = statement(db, 'SELECT seeded FROM label_settings WHERE user_id = ?').get(users.label) as { seeded: number } | undefined;
    if (row?.seeded === 1) return;
    const directory = seeded();
    const label = getLabelSettings(db, users.label);
    const artists: LabelArtistChange[] = SEED_LABEL_ARTISTS.map(({ name, newOn = [] }) => ({
      name,
      platforms: ARTIST_PLATFORMS.map((platform): PlatformChoice => {
        const profile = newOn.includes(platform) ? undefined : directory.findByName(platform, name)[0];
        return profile ? { platform, mode: 'existing', profile } : { platform, mode: 'new', profile: null };
      }),
    }));
    saveLabelPreferences(
      db,
      users.label,
      {
        default_p_line_owner: row ? label.default_p_line_owner : label.name,
        default_c_line_owner: row ? label.default_c_line_owner : label.name,
        default_genre: row ? label.default_genre : 'Pop',
        default_language: row ? label.default_language : 'en',
      },
      artists,
      now,
    );
    statement(db, 'UPDATE label_settings SET seeded = 1 WHERE user_id = ?').run(users.label);
  })();
}
