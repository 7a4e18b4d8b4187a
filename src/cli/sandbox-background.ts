// Finds the background sandbox of a data folder, or starts it: one process serves every command
// that runs on the embedded sandbox, so that each does not load and start the service itself
// (see docs/startup.md). Many commands may arrive at once: one of them takes the lock file and
// starts the process, the others wait for its state file. A state or lock file left by a killed
// process names a pid that is gone, and is replaced. Anything unexpected returns undefined, and
// the command starts the service in its own process instead, as before.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './io.js';
import { DAEMON_ENV, LOCK_FILE, isAlive, readState, sameKey, statePath, type SandboxKey, type SandboxState } from './sandbox-state.js';
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
}

/** Longest wait for the process to start (a first start migrates and seeds a new database). */
const START_TIMEOUT_MS = 20_000;
/** A lock older than this belongs to a start that went wrong. */
const STALE_LOCK_MS = START_TIMEOUT_MS + 5000;
const POLL_MS = 10;

export async function findOrStartSandbox(req: BackgroundRequest): Promise<SandboxState | undefined> {
  const deadline = Date.now() + START_TIMEOUT_MS + 5000;
  while (Date.now() < deadline) {
    const found = usable(req);
    if (found === 'other') return undefined;
    if (found) return found;
    const lock = takeLock(req.dataDir);
    if (lock) {
      try {
        // Someone may have finished starting between our look and our lock.
        const again = usable(req);
        if (again === 'other') return undefined;
        if (again) return again;
        return await startDaemon(req);
      } finally {
        lock.release();
      }
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return undefined;
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

/** Starts the process and waits for its "ready" line; it outlives this command. */
function startDaemon(req: BackgroundRequest): Promise<SandboxState | undefined> {
  const order: DaemonOrder = { dataDir: req.dataDir, idleMs: req.idleMs, sandboxAutoReview: req.sandboxAutoReview, ...req.key };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.env)) if (v !== undefined) env[k] = v;
  // It serves loopback only: an extra CA bundle would only slow its start.
  delete env.NODE_EXTRA_CA_CERTS;
  env[DAEMON_ENV] = JSON.stringify(order);
  return new Promise((resolve) => {
    let child;
    try {
      // Its own process group (no Ctrl-C of the terminal) and none of our streams but the one pipe,
      // so that whoever reads our output is not kept waiting by it.
      child = spawn(req.launcher.execPath, req.launcher.args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env, cwd: req.dataDir });
    } catch {
      resolve(undefined);
      return;
    }
    const started = child;
    let said = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      started.stdout?.destroy();
      started.unref();
      resolve(ok ? readState(req.dataDir) : undefined);
    };
    const timer = setTimeout(() => done(false), START_TIMEOUT_MS);
    started.on('error', () => done(false));
    started.on('exit', () => done(false));
    started.stdout?.setEncoding('utf8');
    started.stdout?.on('data', (chunk: string) => {
      said += chunk;
      if (said.includes('\n')) done(said.startsWith('ready'));
    });
  });
}
