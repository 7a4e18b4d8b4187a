// The background sandbox's state file, shared by the process that serves (sandbox-daemon.ts) and
// the commands that find it (sandbox-background.ts): where it listens, its pid, the label token
// and what it was started with. 0600 in the sandbox's data folder; its mtime is the last time a
// command used it, which is how the background process knows it is idle.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STATE_FILE = 'sandbox-server.json';
export const LOCK_FILE = 'sandbox-server.lock';

/** What a background sandbox must match to serve a command: the same build and auto-review. */
export interface SandboxKey {
  version: string;
  build: string;
  /** '' when auto-review is off, else `outcome:delayMs`. */
  autoReview: string;
}

export interface SandboxState extends SandboxKey {
  pid: number;
  url: string;
  token: string;
}

export function statePath(dir: string): string {
  return join(dir, STATE_FILE);
}

/** undefined when the file is missing or not one of ours. */
export function readState(dir: string): SandboxState | undefined {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(statePath(dir), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const pid = typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0 ? o.pid : undefined;
  const url = str('url');
  const token = str('token');
  const version = str('version');
  const build = str('build');
  const autoReview = str('autoReview');
  if (pid === undefined || !url?.startsWith('http://127.0.0.1:') || !token || version === undefined || build === undefined || autoReview === undefined) {
    return undefined;
  }
  return { pid, url, token, version, build, autoReview };
}

/** Written whole or not at all (a reader never sees half a file), readable by the owner only. */
export function writeState(dir: string, state: SandboxState): void {
  const tmp = `${statePath(dir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(tmp, statePath(dir));
}

export function sameKey(a: SandboxKey, b: SandboxKey): boolean {
  return a.version === b.version && a.build === b.build && a.autoReview === b.autoReview;
}

/** Whether a process of ours has this pid (another user's process under a reused pid is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(pid);
}

/**
 * A killed process stays a zombie until its parent reaps it: a background sandbox's parent is
 * the init process, which in many containers reaps late or never, and signal 0 still reaches a
 * zombie. Its stale lock would hold every later command for up to half a minute.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // `pid (name) S …`: the name may hold spaces and parentheses, the state follows the last ')'.
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

/** The environment variable that makes `reldist` start as the background sandbox (main.ts). */
export const DAEMON_ENV = 'RELDIST_SANDBOX_PROCESS';
