// The first command on the embedded sandbox and the V8 code cache of the service's chunks
// (sandbox-code-cache.ts): a fresh folder gets one; a start under way that dies while a command
// waits for it leaves the command working (it runs the service itself); the cache is private, and
// a damaged one is ignored and written again.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';
import { stopAll, until } from '../helpers/processes.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-first-'));
const started: number[] = [];
afterAll(() => {
  stopAll(started);
  // A process on its way out may still write in its folder: retry the removal a few times.
  rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

let dirs = 0;
function freshEnv(extra: Record<string, string> = {}) {
  const dataDir = join(home, `data-${++dirs}`);
  return { dataDir, env: cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: dataDir, ...extra }) };
}

function stateOf(dataDir: string): { pid: number; url: string } | undefined {
  try {
    const s = JSON.parse(readFileSync(join(dataDir, 'sandbox-server.json'), 'utf8'));
    if (!started.includes(s.pid)) started.push(s.pid);
    return s;
  } catch {
    return undefined;
  }
}

describe('first run on the embedded sandbox', () => {
  it('first run on a fresh folder: answered, a code cache written, the background process then serves', async () => {
    const { dataDir, env } = freshEnv();
    const r = await runBin(['release', 'list', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    // The command ran the service itself this once and wrote the cache as it ended; the background
    // process starts from it (and writes its own only where it compiled without one).
    await until('the background process to announce itself', () => stateOf(dataDir) !== undefined && !existsSync(join(dataDir, 'sandbox-server.lock')));
    const folder = join(dataDir, 'code-cache');
    await until('the code cache', () => existsSync(folder) && readdirSync(folder).some((f) => f.endsWith('.cache')));
    // The next command is served by that process and still answers.
    const again = await runBin(['release', 'list', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
  });

  it('still works when the process it waits for dies', async () => {
    const { dataDir, env } = freshEnv();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // A start under way: the lock names a live process, which then dies without announcing itself.
    const starting = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(dataDir, 'sandbox-server.lock'), String(starting.pid), { mode: 0o600 });
    const command = runBin(['release', 'list', '--json'], env);
    setTimeout(() => starting.kill('SIGKILL'), 300);
    const r = await command;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    // It started a process in place of the dead one, for the next commands.
    await until('the new process to announce itself', () => stateOf(dataDir) !== undefined && !existsSync(join(dataDir, 'sandbox-server.lock')));
    expect(stateOf(dataDir)!.pid).not.toBe(starting.pid);
  });

  it('keeps the code cache private, uses it, and ignores and rewrites a damaged one', async () => {
    const { dataDir, env } = freshEnv({ RELDIST_SANDBOX_IDLE: '0' });
    expect((await runBin(['lookup', 'countries', '--json'], env)).code).toBe(0);
    const folder = join(dataDir, 'code-cache');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder).filter((f) => f.endsWith('.cache'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);

    // Accepted by V8 on the next start: nothing compiled without it, so nothing written again.
    const written = files.map((f) => statSync(join(folder, f)).mtimeMs);
    expect((await runBin(['lookup', 'countries', '--json'], env)).code).toBe(0);
    expect(files.map((f) => statSync(join(folder, f)).mtimeMs)).toEqual(written);

    // Another build's files: a week-old one goes when this build next writes its own, a recent one stays.
    const old = join(folder, 'chunk-OLDBUILD-1-1-v20.0.0-11.3.cache');
    const recent = join(folder, 'chunk-OTHERBUILD-1-1-v20.0.0-11.3.cache');
    writeFileSync(old, 'x');
    writeFileSync(recent, 'x');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, weekAgo, weekAgo);

    const damaged = join(folder, files[0]!);
    writeFileSync(damaged, 'not a code cache');
    const r = await runBin(['lookup', 'countries', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(100);
    expect(readFileSync(damaged, 'utf8')).not.toBe('not a code cache');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });
});
