// Wakes GET /events long polls when an event may have committed. In this process, recordEvent
// says so, and the waiters of that account wake once the running transaction has returned (a
// microtask later: better-sqlite3 commits synchronously). Other processes sharing the data
// directory (the embedded sandbox starts one per command) are seen by a look at the WAL header
// (db/commit-watch.ts: 48 bytes) every POLL_MS, only while someone waits: an idle service runs
// no timer at all. A wake is a hint, never a promise: the waiter reads the log again and waits on
// when nothing new is there (a rolled-back transaction wakes it for nothing).
import type { Database } from 'better-sqlite3';
import type { CommitWatch } from '../db/commit-watch.js';

/** How often waiters look for other processes' commits. */
export const POLL_MS = 200;

interface Waiter {
  userId: number;
  wake(): void;
}

interface Bus {
  waiters: Set<Waiter>;
  /** Accounts whose events were recorded in this process since the last wake. */
  recorded: Set<number>;
  timer: NodeJS.Timeout | undefined;
  /** Bumps when the WAL header moved since its last look (another process, or this one, committed). */
  commitCount: (() => number) | undefined;
  ended: boolean;
}

const buses = new WeakMap<Database, Bus>();

function busOf(db: Database): Bus {
  let bus = buses.get(db);
  if (!bus) {
    bus = { waiters: new Set(), recorded: new Set(), timer: undefined, commitCount: undefined, ended: false };
    buses.set(db, bus);
  }
  return bus;
}

/** recordEvent's note: an event of `userId` is being written in the running transaction. */
export function eventRecorded(db: Database, userId: number): void {
  const bus = buses.get(db);
  if (!bus || bus.waiters.size === 0) return;
  if (bus.recorded.size === 0) {
    queueMicrotask(() => {
      for (const w of bus.waiters) if (bus.recorded.has(w.userId)) w.wake();
      bus.recorded.clear();
    });
  }
  bus.recorded.add(userId);
}

function startPolling(bus: Bus, commits: CommitWatch | undefined): void {
  if (bus.timer) return;
  if (commits && !bus.commitCount) {
    let n = 0;
    bus.commitCount = commits.memo(() => ++n);
  }
  let seen = bus.commitCount?.();
  bus.timer = setInterval(() => {
    // Without a commit watch (no WAL file) every tick is a possible commit.
    const now = bus.commitCount?.();
    if (now !== undefined && now === seen) return;
    seen = now;
    for (const w of bus.waiters) w.wake();
  }, POLL_MS);
}

/**
 * Resolves when an event of `userId` may have committed, after `ms`, when `signal` aborts (the
 * client went away) or when the service stops (endWaits), whichever comes first.
 */
export function waitForEvent(db: Database, commits: CommitWatch | undefined, userId: number, ms: number, signal?: AbortSignal): Promise<void> {
  const bus = busOf(db);
  if (bus.ended || ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const waiter: Waiter = { userId, wake: () => done() };
    const timeout = setTimeout(() => done(), ms);
    const done = () => {
      clearTimeout(timeout);
      signal?.removeEventListener('abort', done);
      bus.waiters.delete(waiter);
      if (bus.waiters.size === 0 && bus.timer) {
        clearInterval(bus.timer);
        bus.timer = undefined;
      }
      resolve();
    };
    signal?.addEventListener('abort', done, { once: true });
    bus.waiters.add(waiter);
    startPolling(bus, commits);
  });
}

/** Whether the service is stopping: a long poll answers at once. */
export function waitsEnded(db: Database): boolean {
  return buses.get(db)?.ended ?? false;
}

/** The service is stopping: every long poll answers now (an empty page), and none waits again. */
export function endWaits(db: Database): void {
  const bus = busOf(db);
  bus.ended = true;
  for (const w of bus.waiters) w.wake();
}
