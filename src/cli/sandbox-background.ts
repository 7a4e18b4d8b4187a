// Finds the background sandbox of a data folder, or starts it: one process serves every command
// that runs on the embedded sandbox, so that each does not load and start the service itself
// (see docs/startup.md). The command that finds none takes the lock file, runs the service in its
// own process this once, and spawns the process once its own work is done (or after a second, for
// a long command), so that the new process's start does not share the cores with the command's
// (the lock passes to it, and it removes the lock once it has announced itself); commands arriving
// meanwhile wait for the state file. A state or lock file left by a killed process names a pid
// that is gone, and is replaced. Anything unexpected returns undefined, and the command starts
// the service in its own process, as before.
import { spawn } from 'node:child_process';
import { closeSync, openSync, watch, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './io.js';
import { DAEMON_ENV, LOCK_FILE, STATE_FILE, isAlive, readState, sameKey, statePath, type SandboxKey, type SandboxState } from './sandbox-state.js';
import type { DaemonOrder } from './sandbox-daemon.js';

/** How to start `reldist` again (main.ts knows; commands run in tests do not, and stay in-process). */
export interface SandboxLauncher {
  execPath: string;
  args: string[];
  /** Tells two builds of the same version apart (development), so that a rebuilt CLI never talks to an old process. */
  build: string;
}

export interface BackgroundRequest {
  dataDir: string;
  key: SandboxKey;
  idleMs: number;
  sandboxAutoReview: DaemonOrder['sandboxAutoReview'];
  launcher: SandboxLauncher;
  env: Env;
  /**
   * Given the start of the process when this command is the one to start it (it holds the lock
   * meanwhile): the caller runs it once its own work is done. Run it exactly once; a command that
   * dies first leaves a lock naming a dead pid, which the next command replaces.
   */
  startLater(start: () => void): void;
}

/** Longest wait for the process to start (a first start migrates and seeds a new database). */
const START_TIMEOUT_MS = 20_000;
/** A lock older than this belongs to a start that went wrong. */
const STALE_LOCK_MS = START_TIMEOUT_MS + 5000;
const POLL_MS = 10;

/**
 * The running process to talk to; undefined when the command is to run the service itself: it
 * is the one to start the process (handed to `startLater`; later commands will find it), or no
 * process can serve it.
 */
export async function findOrStartSandbox(req: BackgroundRequest): Promise<SandboxState | undefined> {
  const deadline = Date.now() + START_TIMEOUT_MS + 5000;
  const changes = folderChanges(req.dataDir);
  try {
    while (Date.now() < deadline) {
      const found = usable(req);
      if (found === 'other') return undefined;
      if (found) return found;
      const lock = takeLock(req.dataDir);
      if (lock) {
        // Someone may have finished starting between our look and our lock.
        const again = usable(req);
        if (again) {
          lock.release();
          return again === 'other' ? undefined : again;
        }
        req.startLater(() => {
          if (!spawnDaemon(req)) lock.release();
        });
        return undefined;
      }
      await changes.next(POLL_MS);
    }
    return undefined;
  } finally {
    changes.close();
  }
}

/**
 * Resolves at the next change in the data folder (the state file renamed into place, the lock
 * removed) or after `ms`, whichever is first: a waiting command learns of the process at once,
 * not at its next look. Timeouts alone where the folder cannot be watched.
 */
function folderChanges(dir: string): { next(ms: number): Promise<void>; close(): void } {
  let wake: (() => void) | undefined;
  let watcher: ReturnType<typeof watch> | undefined;
  const start = () => {
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        // Not the database's files: only what says a process is there or gone.
        if (name === null || name === STATE_FILE || name === LOCK_FILE) wake?.();
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      watcher = undefined;
    }
  };
  return {
    next(ms) {
      if (watcher === undefined) start();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    },
    close() {
      watcher?.close();
    },
  };
}

/**
 * The running process when it can serve this command (and marks it used); 'other' when a live
 * one was started differently (another version, other auto-review): the command then runs the
 * service itself rather than stop a process other commands may be using.
 */
function usable(req: BackgroundRequest): SandboxState | 'other' | undefined {
  const state = readState(req.dataDir);
  if (!state || !isAlive(state.pid)) return undefined;
  if (!sameKey(state, req.key)) return 'other';
  return touch(req.dataDir) ? state : undefined;
}

/** Marks the process used now; false when the file just went away (the process is leaving). */
export function touch(dataDir: string): boolean {
  const now = new Date();
  try {
    utimesSync(statePath(dataDir), now, now);
    return true;
  } catch {
    return false;
  }
}

function takeLock(dir: string): { release(): void } | undefined {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: () => {
          try {
            unlinkSync(path);
          } catch {
            // Broken by another process that thought it stale: nothing to undo.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !lockIsStale(path)) return undefined;
      try {
        unlinkSync(path);
      } catch {
        // Another process broke it first.
      }
    }
  }
  return undefined;
}

function lockIsStale(path: string): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    // Empty: the holder is between creating and writing it, unless that was long ago.
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return true;
    return Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

/**
 * Starts the process without waiting for it, and hands it the lock: the lock names its pid from
 * now on (a start that dies leaves a stale lock, which the next command replaces) and it removes
 * the lock once its state file is written. False when it could not be spawned.
 */
function spawnDaemon(req: BackgroundRequest): boolean {
  const order: DaemonOrder = { dataDir: req.dataDir, idleMs: req.idleMs, sandboxAutoReview: req.sandboxAutoReview, starter: process.pid, ...req.key };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.env)) if (v !== undefined) env[k] = v;
  // It serves loopback only: an extra CA bundle would only slow its start.
  delete env.NODE_EXTRA_CA_CERTS;
  env[DAEMON_ENV] = JSON.stringify(order);
  try {
    // Its own process group (no Ctrl-C of the terminal), none of our streams (whoever reads our
    // output is not kept waiting by it), and unref'd: this command exits without it.
    const child = spawn(req.launcher.execPath, req.launcher.args, { detached: true, stdio: 'ignore', env, cwd: req.dataDir });
    child.on('error', () => {
      // Reported by a stale lock (no such pid): the next command starts one.
    });
    child.unref();
    if (child.pid === undefined) return false;
    // Whole or not at all: a reader never takes a half-written pid for a stale lock.
    const path = join(req.dataDir, LOCK_FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, String(child.pid), { mode: 0o600 });
    renameSync(tmp, path);
    return true;
  } catch {
    return false;
  }
}
