// Schema changes, in code. Each part of the service (a ServerModule) has its own ordered list and
// its own row in schema_version, so the core and the artist directory migrate independently.
// Never edit or reorder a migration that has shipped: add a new one.
// Migrations are frozen: they import no live code (store/, rules, the contract), since a later
// change there would change what an old migration does to a database that has not run it yet.
// What a migration needs is copied here as it was when the migration shipped; a test
// (test/unit/server-migrations-frozen.test.ts) holds every migration file to that.
import type { Database } from 'better-sqlite3';
import type { Migration, ServerModule } from '../handler.js';

/** What these migrations read of a release's JSON `data` column. */
interface ReleaseDataV1 {
  artists: { name: string }[];
  catalog_number: string | null;
}

/** Migration 3's catalog key: the catalog number trimmed and lowercased; null for none. */
function catalogKeyV3(catalogNumber: string | null | undefined): string | null {
  const t = catalogNumber?.trim() ?? '';
  return t === '' ? null : t.toLowerCase();
}

/** Migration 3's search text: title, artist names, UPC and the catalog number as given, lowercased. */
function searchTextV3(title: string, data: ReleaseDataV1, upc: string | null): string {
  return [title, ...data.artists.map((a) => a.name), upc ?? '', data.catalog_number ?? ''].join('\n').toLowerCase();
}

/** Migration 4's catalog key, the contract's key form (catalogNumberKey then): NFC, trimmed, lowercased; null for none. */
function catalogKeyV4(catalogNumber: string | null | undefined): string | null {
  const key = catalogNumber == null ? '' : catalogNumber.normalize('NFC').trim().toLowerCase();
  return key === '' ? null : key;
}

/** Migration 4's search text: the catalog number in its key form. */
function searchTextV4(title: string, data: ReleaseDataV1, upc: string | null): string {
  return [title, ...data.artists.map((a) => a.name), upc ?? '', catalogKeyV4(data.catalog_number) ?? ''].join('\n').toLowerCase();
}

/** The words a release is searched by (title, artist names), from its row `r` (new, old or the table). */
const WORDS = (r: string) =>
  `${r}.title || char(10) || coalesce((SELECT group_concat(json_extract(value, '$.name'), char(10)) FROM json_each(${r}.data, '$.artists')), '')`;

/** Where a suffix of a code may start: 1..64 (codes are at most 32 characters on the wire). */
const CODE_POSITIONS = 64;

/** Inserts the suffixes (3 characters or more) of row `r`'s UPC and catalog key. */
const SUFFIXES = (r: string) => `INSERT OR IGNORE INTO release_code_suffixes (user_id, suffix, release_id)
          SELECT ${r}.user_id, substr(c.code, k.p), ${r}.id FROM (SELECT lower(${r}.upc) AS code UNION SELECT ${r}.catalog_key) c, code_positions k
          WHERE c.code IS NOT NULL AND k.p <= length(c.code) - 2;`;

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
        const data = JSON.parse(row.data) as ReleaseDataV1;
        update.run(catalogKeyV3(data.catalog_number), searchTextV3(row.title, data, row.upc), row.id);
      }
    },
  },
  {
    name: 'scale: indexes for the filters, counts by status and type, trigram search, the auto-review due time',
    up(db) {
      db.exec(`
        CREATE INDEX releases_user_status ON releases(user_id, status, id);
        CREATE INDEX releases_user_type ON releases(user_id, type, id);
        -- settleDueReviews runs before every request of a sandbox user: an index range, not a scan.
        CREATE INDEX releases_review_due ON releases(user_id, json_extract(data, '$.auto_review.due_at')) WHERE status = 'in_review';

        -- A list's total without counting rows: kept by triggers, read as a sum of a few rows.
        CREATE TABLE release_counts (
          user_id INTEGER NOT NULL,
          status TEXT NOT NULL,
          type TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (user_id, status, type)
        ) WITHOUT ROWID;
        INSERT INTO release_counts (user_id, status, type, n) SELECT user_id, status, type, COUNT(*) FROM releases GROUP BY 1, 2, 3;
        CREATE TRIGGER release_counts_insert AFTER INSERT ON releases BEGIN
          INSERT INTO release_counts (user_id, status, type, n) VALUES (new.user_id, new.status, new.type, 1)
            ON CONFLICT (user_id, status, type) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER release_counts_delete AFTER DELETE ON releases BEGIN
          UPDATE release_counts SET n = n - 1 WHERE user_id = old.user_id AND status = old.status AND type = old.type;
        END;
        CREATE TRIGGER release_counts_update AFTER UPDATE OF user_id, status, type ON releases
          WHEN old.user_id IS NOT new.user_id OR old.status IS NOT new.status OR old.type IS NOT new.type BEGIN
          UPDATE release_counts SET n = n - 1 WHERE user_id = old.user_id AND status = old.status AND type = old.type;
          INSERT INTO release_counts (user_id, status, type, n) VALUES (new.user_id, new.status, new.type, 1)
            ON CONFLICT (user_id, status, type) DO UPDATE SET n = n + 1;
        END;

        -- Search, part 1: the words (title and artist names) in an index of trigrams, contentless
        -- (the text is in releases already) and without positions (a candidate is checked against
        -- search_text anyway: store/releases.ts), which keeps it small and its look-ups short.
        CREATE VIRTUAL TABLE releases_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'trigram', detail = 'none');
        CREATE TRIGGER releases_search_insert AFTER INSERT ON releases BEGIN
          INSERT INTO releases_search (rowid, words) VALUES (new.id, ${WORDS('new')});
        END;
        CREATE TRIGGER releases_search_delete AFTER DELETE ON releases BEGIN
          DELETE FROM releases_search WHERE rowid = old.id;
        END;
        CREATE TRIGGER releases_search_update AFTER UPDATE OF title, data ON releases
          WHEN old.title IS NOT new.title OR json_extract(old.data, '$.artists') IS NOT json_extract(new.data, '$.artists') BEGIN
          DELETE FROM releases_search WHERE rowid = old.id;
          INSERT INTO releases_search (rowid, words) VALUES (new.id, ${WORDS('new')});
        END;

        -- Search, part 2: the codes (UPC, catalog key), whose characters are too few for trigrams
        -- to tell apart (every UPC of an account shares its prefix): each suffix of three characters
        -- or more, so a part of a code is a range of this index.
        CREATE TABLE code_positions (p INTEGER PRIMARY KEY);
        INSERT INTO code_positions (p) SELECT value FROM json_each('${JSON.stringify(Array.from({ length: CODE_POSITIONS }, (_, i) => i + 1))}');
        CREATE TABLE release_code_suffixes (
          user_id INTEGER NOT NULL,
          suffix TEXT NOT NULL,
          release_id INTEGER NOT NULL,
          PRIMARY KEY (user_id, suffix, release_id)
        ) WITHOUT ROWID;
        CREATE INDEX release_code_suffixes_release ON release_code_suffixes(release_id);
        CREATE TRIGGER release_code_suffixes_insert AFTER INSERT ON releases BEGIN
          ${SUFFIXES('new')}
        END;
        CREATE TRIGGER release_code_suffixes_delete AFTER DELETE ON releases BEGIN
          DELETE FROM release_code_suffixes WHERE release_id = old.id;
        END;
        CREATE TRIGGER release_code_suffixes_update AFTER UPDATE OF user_id, upc, catalog_key ON releases
          WHEN old.user_id IS NOT new.user_id OR old.upc IS NOT new.upc OR old.catalog_key IS NOT new.catalog_key BEGIN
          DELETE FROM release_code_suffixes WHERE release_id = old.id;
          ${SUFFIXES('new')}
        END;
      `);
      // Catalog keys in the contract's form (catalogNumberKey: NFC as well); the index is then
      // built over the final keys. Only rows whose key changes are written.
      const rows = db.prepare('SELECT id, catalog_key, data FROM releases').all() as { id: number; catalog_key: string | null; data: string }[];
      const update = db.prepare('UPDATE releases SET catalog_key = ? WHERE id = ?');
      for (const row of rows) {
        const key = catalogKeyV4((JSON.parse(row.data) as ReleaseDataV1).catalog_number);
        if (key !== row.catalog_key) update.run(key, row.id);
      }
      // search_text holds the catalog number in its key form now (as store/releases.ts: searchText).
      const all = db.prepare('SELECT id, title, upc, data FROM releases').all() as { id: number; title: string; upc: string | null; data: string }[];
      const setText = db.prepare('UPDATE releases SET search_text = ? WHERE id = ?');
      for (const row of all) setText.run(searchTextV4(row.title, JSON.parse(row.data) as ReleaseDataV1, row.upc), row.id);
      db.exec(`
        INSERT INTO releases_search (rowid, words) SELECT id, ${WORDS('releases')} FROM releases;
        INSERT INTO releases_search (releases_search) VALUES ('optimize');
      `);
      db.exec(`INSERT OR IGNORE INTO release_code_suffixes (user_id, suffix, release_id)
        SELECT c.user_id, substr(c.code, k.p), c.id
        FROM (SELECT user_id, id, lower(upc) AS code FROM releases UNION ALL SELECT user_id, id, catalog_key FROM releases) c, code_positions k
        WHERE c.code IS NOT NULL AND k.p <= length(c.code) - 2`);
    },
  },
  {
    name: 'tokens: a generation bumped by every revocation or change, for the verified-token cache',
    up(db) {
      // http/auth.ts keeps verified tokens in memory and drops them all when this number moves;
      // triggers bump it whatever process or tool changes the tables.
      db.exec(`
        CREATE TABLE token_generation (only INTEGER PRIMARY KEY CHECK (only = 1), n INTEGER NOT NULL);
        INSERT INTO token_generation (only, n) VALUES (1, 0);
        CREATE TRIGGER tokens_deleted AFTER DELETE ON tokens BEGIN UPDATE token_generation SET n = n + 1; END;
        CREATE TRIGGER tokens_updated AFTER UPDATE ON tokens BEGIN UPDATE token_generation SET n = n + 1; END;
        CREATE TRIGGER users_deleted AFTER DELETE ON users BEGIN UPDATE token_generation SET n = n + 1; END;
        CREATE TRIGGER users_updated AFTER UPDATE OF id, kind, name, email ON users BEGIN UPDATE token_generation SET n = n + 1; END;
      `);
    },
  },
  {
    name: 'sandbox ISRCs: a counter per user and year',
    up(db) {
      // Filled on first use from the highest designation already assigned (store/codes.ts).
      db.exec(`
        CREATE TABLE isrc_counters (
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          year INTEGER NOT NULL,
          next INTEGER NOT NULL,
          PRIMARY KEY (user_id, year)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    name: 'idempotency keys: the request that holds a key in progress, and its process',
    up(db) {
      // NULL in rows from before: their owner cannot be proven gone, so they wait out the time
      // limit as before (http/idempotency.ts).
      db.exec(`
        ALTER TABLE idempotency ADD COLUMN owner TEXT;        -- a random token per request that holds the key
        ALTER TABLE idempotency ADD COLUMN owner_pid INTEGER; -- that request's process, on owner_host
        ALTER TABLE idempotency ADD COLUMN owner_host TEXT;
      `);
    },
  },
  {
    name: "sandbox UPCs: each user's prefix moves from GS1 02 (restricted circulation) to 952 (GS1's demonstration prefix)",
    up(db) {
      // users.ts's upcPrefixFor as of this version: 952 + the user id's last 5 digits. A prefix
      // another user's row already holds (ids 100,000 apart) is left as it was: UNIQUE.
      db.exec(`UPDATE OR IGNORE users SET upc_prefix = '952' || substr('00000' || (id % 100000), -5) WHERE upc_prefix LIKE '2%';`);
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
      const row = db.prepare('SELECT version FROM schema_version WHERE component = ?').get(mod.component) as { version: number } | undefined;
      const current = row?.version ?? 0;
      if (current > mod.migrations.length) {
        throw new Error(`data directory schema for ${mod.component} is version ${current}, newer than this program knows (${mod.migrations.length})`);
      }
      for (let i = current; i < mod.migrations.length; i++) mod.migrations[i]!.up(db);
      db.prepare('INSERT INTO schema_version (component, version) VALUES (?, ?) ON CONFLICT(component) DO UPDATE SET version = excluded.version').run(
        mod.component,
        mod.migrations.length,
      );
    }).immediate();
  }
}
