// Service-wide values kept in the database (the `meta` table), e.g. the upload-signing secret.
import type { Database } from 'better-sqlite3';
import { statement } from './statements.js';

/**
 * The value under `key`, storing `initial` first when there is none. INSERT OR IGNORE then read:
 * two processes racing both end up with the first one's value.
 */
export function metaValueOrInit(db: Database, key: string, initial: string): string {
  statement(db, 'INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, initial);
  return (statement(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string }).value;
}
