// Opens the service database under the data directory with the settings every connection needs.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE = 'reldist.sqlite';

/** Owner only: the database holds the upload-signing secret and the token hashes. */
const PRIVATE_FILE = 0o600;

export function openDatabase(dataDir: string, options: { verbose?: ((sql?: unknown) => void) | undefined } = {}): Database.Database {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DB_FILE);
  // Created (or tightened) before SQLite opens it: SQLite gives the -wal and -shm files the
  // database file's mode, so all three stay private whatever the umask.
  closeSync(openSync(file, 'a', PRIVATE_FILE));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(f)) chmodSync(f, PRIVATE_FILE);
    } catch {
      // Owned by another account (a shared data directory): its owner decides.
    }
  }
  // timeout = busy_timeout: a second process waits for the lock instead of failing at once.
  const db = new Database(file, { timeout: 10_000, ...(options.verbose ? { verbose: options.verbose } : {}) });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode, and much faster than FULL.
  db.pragma('synchronous = NORMAL');
  return db;
}
