// Schema changes, in code. Each part of the service (a ServerModule) has its own ordered list and
// its own row in schema_version, so the core and the artist directory migrate independently.
// Never edit or reorder a migration that has shipped: add a new one.
import type { Database } from 'better-sqlite3';
import type { Migration, ServerModule } from '../handler.js';
import { catalogKey, searchText, type ReleaseData } from '../store/releases.js';

export const coreMigrations: Migration[] = [
  {
    name: 'users, tokens, releases, tracks, uploads, idempotency',
    up(db) {
      db.exec(`
        CREATE TABLE users (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL CHECK (kind IN ('label', 'artist')),
          name TEXT NOT NULL,
          email TEXT NOT NULL UNIQUE,
          label_name TEXT,
          artist_name TEXT,
          country TEXT,
          -- Sandbox code allocation: UPCs are <upc_prefix><4-digit item><check>, ISRCs ZZ<isrc_registrant><yy><5 digits>.
          upc_prefix TEXT NOT NULL UNIQUE,
          isrc_registrant TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL
        );
        CREATE TABLE tokens (
          hash TEXT PRIMARY KEY,          -- sha256 hex of the bearer token; the token itself is never stored
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          label TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE releases (
          id INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: a deleted release's id is never reused
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          status TEXT NOT NULL,
          type TEXT NOT NULL,
          title TEXT NOT NULL,
          upc TEXT,                               -- compact digits as given; NULL = assign at submit
          upc_gtin14 TEXT,                        -- padded form, for uniqueness checks
          search_text TEXT NOT NULL DEFAULT '',   -- lowercased title, artist names and UPC
          data TEXT NOT NULL,                     -- the rest of the release, as JSON
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          submitted_at TEXT
        );
        CREATE INDEX releases_user ON releases(user_id, id);
        CREATE INDEX releases_user_upc ON releases(user_id, upc_gtin14);
        CREATE TABLE uploads (
          key TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
          filename TEXT NOT NULL,
          content_type TEXT NOT NULL,
          size INTEGER NOT NULL,
          sha256 TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready', 'rejected')),
          reason TEXT,                            -- why the last attempt was refused
          format TEXT, sample_rate INTEGER, bit_depth INTEGER, channels INTEGER, duration_ms INTEGER,
          created_at TEXT NOT NULL,
          uploaded_at TEXT
        );
        CREATE TABLE tracks (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
          disc INTEGER NOT NULL,
          position INTEGER NOT NULL,
          isrc TEXT,
          file_key TEXT REFERENCES uploads(key),
          data TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX tracks_release ON tracks(release_id, disc, position);
        CREATE TABLE idempotency (
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          key TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          status INTEGER,                         -- NULL while the first request is still running
          body TEXT,
          created_at TEXT NOT NULL,
          PRIMARY KEY (user_id, key)
        );
        CREATE TABLE code_counters (
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('upc', 'isrc')),
          next INTEGER NOT NULL,
          PRIMARY KEY (user_id, kind)
        );
      `);
    },
  },
  {
    name: 'index tracks by ISRC (code assignment skips codes already on a track)',
    up(db) {
      db.exec('CREATE INDEX tracks_isrc ON tracks(isrc)');
    },
  },
  {
    name: 'catalog numbers: a normalised key per release, and in the search text',
    up(db) {
      // A plain index, not a unique one: databases from before this rule may already hold two
      // releases with one catalog number, and the migration must not fail on them (they stay
      // readable). Uniqueness is checked inside the IMMEDIATE write transactions that create or
      // renumber a release instead, which is race-free across processes sharing this file.
      db.exec(`
        ALTER TABLE releases ADD COLUMN catalog_key TEXT;  -- catalog number trimmed and lowercased; NULL = none
        CREATE INDEX releases_user_catalog ON releases(user_id, catalog_key);
      `);
      const rows = db.prepare('SELECT id, title, upc, data FROM releases').all() as { id: number; title: string; upc: string | null; data: string }[];
      const update = db.prepare('UPDATE releases SET catalog_key = ?, search_text = ? WHERE id = ?');
      for (const row of rows) {
        const data = JSON.parse(row.data) as ReleaseData;
        update.run(catalogKey(data.catalog_number), searchText(row.title, data, row.upc), row.id);
      }
    },
  },
];

/** Applies every pending migration of every module, each module in one IMMEDIATE transaction. */
export function migrate(db: Database, modules: readonly ServerModule[]): void {
  // IMMEDIATE takes the write lock before reading the version, so two processes opening the same
  // data directory at once serialize here (busy_timeout makes the second one wait, not fail).
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  }).immediate();
  for (const mod of modules) {
    db.transaction(() => {
      const row = db.prepare('SELECT version FROM schema_version WHERE component = ?').get(mod.component) as
        | { version: number }
        | undefined;
      const current = row?.version ?? 0;
      if (current > mod.migrations.length) {
        throw new Error(
          `data directory schema for ${mod.component} is version ${current}, newer than this program knows (${mod.migrations.length})`,
        );
      }
      for (let i = current; i < mod.migrations.length; i++) mod.migrations[i]!.up(db);
      db.prepare(
        'INSERT INTO schema_version (component, version) VALUES (?, ?) ON CONFLICT(component) DO UPDATE SET version = excluded.version',
      ).run(mod.component, mod.migrations.length);
    }).immediate();
  }
}
