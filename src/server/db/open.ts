// Opens the service database under the data directory with the settings every connection needs.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE = 'reldist.sqlite';

/** Owner only: the database holds the upload-signing secret and the token hashes. */
const PRIVATE_FILE = 0o600;

/** How long a process waits for another's lock on the database (busy_timeout, and entering WAL). */
const LOCK_WAIT_MS = 10_000;

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
  const db = new Database(file, { timeout: LOCK_WAIT_MS, ...(options.verbose ? { verbose: options.verbose } : {}) });
  enterWal(db);
  db.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode, and much faster than FULL.
  db.pragma('synchronous = NORMAL');
  return db;
}

/**
 * `journal_mode = WAL`. On a new file it needs a lock that SQLite takes without its busy handler,
 * so two processes opening a new data directory at once (the embedded sandbox's commands, two
 * `serve`s) could fail with SQLITE_BUSY ("database is locked", 3 to 6 pairs in 25 here). Asked
 * again until the other has switched the file (WAL then stays with it), within the same bound.
 */
function enterWal(db: Database.Database): void {
  const until = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw e;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}
