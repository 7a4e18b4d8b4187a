// Whether anything was committed to the database since the last look, by any connection of any
// process, for one 48-byte read instead of a statement: a statement's fixed cost (a read
// transaction, two file locks, and SQLite's code out of the CPU's caches between requests) was
// the largest share of a lookup's time once the framework was out of the way (docs/performance.md).
//
// In WAL mode every commit rewrites the wal-index header, the first 48 bytes of the `-shm` file
// (https://www.sqlite.org/walformat.html: its change counter, frame count, salts and checksums),
// before the commit returns; the file is the shared memory of every connection, so a read of it
// after a commit returned sees the new header. Checkpoints may rewrite it too: that only costs a
// statement. A header being written while it is read differs from the last one seen, which also
// only costs a statement. Without WAL or the file, every look runs the statement.
import type { Database } from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 48;

export class CommitWatch {
  private fd: number | undefined;

  /** One per database; close() with it. */
  constructor(db: Database) {
    if (db.memory || String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return;
    try {
      this.fd = openSync(`${db.name}-shm`, 'r');
    } catch {
      // No shared-memory file (another VFS): every look runs the statement.
    }
  }

  /**
   * `read` memoised until the next commit: it runs again only when the header moved since its
   * last run. The header is read before `read` runs, so a commit in between is seen next time.
   */
  memo<T>(read: () => T): () => T {
    if (this.fd === undefined) return read;
    const seen = Buffer.alloc(HEADER_BYTES);
    const now = Buffer.alloc(HEADER_BYTES);
    let known = false;
    let value: T;
    return () => {
      if (this.fd === undefined || readSync(this.fd, now, 0, HEADER_BYTES, 0) !== HEADER_BYTES) {
        known = false;
        return read();
      }
      if (known && now.equals(seen)) return value;
      now.copy(seen);
      value = read();
      known = true;
      return value;
    };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
