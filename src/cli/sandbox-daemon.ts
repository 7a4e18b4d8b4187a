// The background sandbox: the reference service over the sandbox's data folder, started by the
// first command that needs it (sandbox-background.ts) and reused by the next ones, so that they
// do not each load and start the service. That command does not wait for it: it hands over the
// start lock, which this process checks still names it before it announces itself in the 0600
// state file, and then removes. It goes away by itself: when no command has used it for the idle
// time, when another one took its place, or on SIGTERM.
import { existsSync, linkSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxAutoReview } from '../server/index.js';
import { loadSandboxServer } from './server-loader.js';
import { LOCK_FILE, readState, statePath, writeState, type SandboxKey } from './sandbox-state.js';

/** What the starting command hands over, in the DAEMON_ENV variable (no secret: the token comes from the data folder). */
export interface DaemonOrder extends SandboxKey {
  dataDir: string;
  idleMs: number;
  sandboxAutoReview: SandboxAutoReview | null;
  /** The pid of the command that spawned this process (it runs the service itself this once). */
  starter: number;
}

/** When the code cache of the service's chunks is written (sandbox-code-cache.ts). */
const CODE_CACHE_AFTER_MS = 2000;

/** How often the state file is looked at. */
const CHECK_MS = 1000;
/**
 * After giving up its state file, the process still serves this long: a command that read the
 * file a moment before may be about to connect.
 */
const GRACE_MS = 5000;

export async function runSandboxDaemon(order: DaemonOrder): Promise<number> {
  await starterDone(order.starter);
  // Removed while we started (a test's temporary folder): starting would only make it again.
  if (!existsSync(order.dataDir)) return 1;
  const { server: service, codeCache } = await loadSandboxServer(order.dataDir);
  const server = await service.startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: order.dataDir,
    sandbox: true,
    // Commands share this process now: one command's requests must not spend another's budget.
    rateLimit: false,
    ...(order.sandboxAutoReview ? { sandboxAutoReview: order.sandboxAutoReview } : {}),
  });
  const token = server.tokens?.label;
  // The lock no longer ours: it was taken as stale (this start took too long, and another one may
  // be under way) or the folder went away. Either way this process is not wanted.
  if (!token || !holdsLock(order.dataDir)) {
    await server.close();
    return 1;
  }
  // A live process from a broken lock may still exist: the last one to write wins, the other
  // finds the file naming someone else and leaves.
  writeState(order.dataDir, { pid: process.pid, url: server.url, token, version: order.version, build: order.build, autoReview: order.autoReview });
  releaseLock(order.dataDir);
  // Once the first commands have been served, so that it holds what serving compiled too; not on
  // the way out, when the data folder may be going away.
  setTimeout(() => codeCache.save(), CODE_CACHE_AFTER_MS).unref();

  await new Promise<void>((resolve) => {
    let leaving = false;
    const leave = (afterMs: number) => {
      if (leaving) return;
      leaving = true;
      clearInterval(timer);
      setTimeout(resolve, afterMs);
    };
    const timer = setInterval(() => {
      if (stillWanted(order) !== 'yes') leave(GRACE_MS);
    }, CHECK_MS);
    process.once('SIGTERM', () => {
      giveUpStateFile(order.dataDir);
      leave(0);
    });
    process.once('SIGINT', () => {
      giveUpStateFile(order.dataDir);
      leave(0);
    });
  });
  await server.close();
  return 0;
}

/**
 * 'yes' while the state file names this process and a command used it within the idle time. When
 * idle, the file is first moved aside (atomically, so no command can touch it any more) and its
 * time looked at again: a command that touched it just before keeps the process, and the file
 * goes back in place.
 */
function stillWanted(order: DaemonOrder): 'yes' | 'superseded' | 'idle' {
  const dir = order.dataDir;
  const state = readState(dir);
  if (!state || state.pid !== process.pid) return 'superseded';
  if (!isIdle(statePath(dir), order.idleMs)) return 'yes';
  const aside = `${statePath(dir)}.${process.pid}.leaving`;
  try {
    renameSync(statePath(dir), aside);
  } catch {
    return 'superseded';
  }
  if (isIdle(aside, order.idleMs)) {
    unlinkSync(aside);
    return 'idle';
  }
  try {
    // link, not rename: it fails rather than replace a state file another process wrote meanwhile.
    linkSync(aside, statePath(dir));
    return 'yes';
  } catch {
    return 'superseded';
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Already gone.
    }
  }
}

function isIdle(path: string, idleMs: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > idleMs;
  } catch {
    return true;
  }
}

/** The longest this process lets the command that spawned it run alone (a long command: watch, uploads). */
const STARTER_HEAD_START_MS = 1000;

/**
 * Waits (bounded) until the command that spawned us (`starter`) has exited: it is running the
 * service itself this once, and loading ours beside it on a busy machine would slow it. Detached,
 * we are re-parented when it exits, so our parent pid changes. Its pid comes in the order, not
 * from our parent pid at start: a command spawns us at its very end, and may be gone before we
 * look (then our parent is already another process, and there is nothing to wait for).
 * Returns how long it waited (ms).
 */
export async function starterDone(starter: number, pause = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<number> {
  let waited = 0;
  for (; waited < STARTER_HEAD_START_MS && process.ppid === starter; waited += 10) await pause(10);
  return waited;
}

function holdsLock(dir: string): boolean {
  try {
    return Number(readFileSync(join(dir, LOCK_FILE), 'utf8')) === process.pid;
  } catch {
    return false;
  }
}

function releaseLock(dir: string): void {
  // Checked first: a lock taken since by another start is not ours to remove.
  if (!holdsLock(dir)) return;
  try {
    unlinkSync(join(dir, LOCK_FILE));
  } catch {
    // Gone already.
  }
}

function giveUpStateFile(dir: string): void {
  if (readState(dir)?.pid !== process.pid) return;
  try {
    unlinkSync(statePath(dir));
  } catch {
    // Gone already.
  }
}

/** Reads the order main.ts found in the environment; undefined when it is not one. */
export function parseOrder(text: string): DaemonOrder | undefined {
  try {
    const v = JSON.parse(text) as DaemonOrder;
    return typeof v.dataDir === 'string' && typeof v.idleMs === 'number' && typeof v.version === 'string' && typeof v.starter === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}
