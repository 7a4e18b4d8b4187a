// Opens the service database under the data directory with the settings every connection needs.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE = 'reldist.sqlite';

export function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // timeout = busy_timeout: a second process waits for the lock instead of failing at once.
  const db = new Database(join(dataDir, DB_FILE), { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode, and much faster than FULL.
  db.pragma('synchronous = NORMAL');
  return db;
}
