// Wakes this process's webhook dispatcher when deliveries were queued, once the transaction that
// queued them has returned (a microtask later: better-sqlite3 commits synchronously). Other
// processes' commits are seen by the dispatcher's own look at the WAL header.
import type { Database } from 'better-sqlite3';

const wakers = new WeakMap<Database, () => void>();
const pending = new WeakSet<Database>();

export function onDeliveriesQueued(db: Database, wake: (() => void) | undefined): void {
  if (wake) wakers.set(db, wake);
  else wakers.delete(db);
}

export function deliveriesQueued(db: Database): void {
  const wake = wakers.get(db);
  if (!wake || pending.has(db)) return;
  pending.add(db);
  queueMicrotask(() => {
    pending.delete(db);
    wake();
  });
}
