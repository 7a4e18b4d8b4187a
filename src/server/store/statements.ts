// Prepared statements, once per database: preparing on every call was a hot spot of the service
// (SQLite parses and plans the SQL each time). Statements are cached by their text; a database
// that is closed and dropped takes its cache with it (WeakMap).
import type { Database, Statement } from 'better-sqlite3';

const caches = new WeakMap<Database, Map<string, Statement>>();

// Queries built from filters have a handful of shapes; the bound only guards against a caller
// that would splice values into SQL (none does: values are always bound parameters).
const MAX_CACHED = 500;

/** The prepared statement for `sql` on `db`, prepared on first use. */
export function statement(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (cache.size < MAX_CACHED) cache.set(sql, stmt);
  }
  return stmt;
}
