// The embedded sandbox's background process: many commands starting it at once share one process
// and lose nothing; files left by a killed process are replaced; it leaves when idle; its token
// is in no command line and no file others can read.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';
import { alive, stopAll, until } from '../helpers/processes.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-bg-'));
const started: number[] = [];
afterAll(() => {
  stopAll(started);
  rmSync(home, { recursive: true, force: true });
});

let dirs = 0;
function freshEnv(extra: Record<string, string> = {}) {
  const dataDir = join(home, `data-${++dirs}`);
  return { dataDir, env: cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: dataDir, ...extra }) };
}

/** The background process's state, once it has announced itself (the command that spawned it did not wait). */
async function stateOf(dataDir: string): Promise<{ pid: number; url: string; token: string }> {
  await until(
    'the background process to announce itself',
    () => existsSync(join(dataDir, 'sandbox-server.json')) && !existsSync(join(dataDir, 'sandbox-server.lock')),
  );
  const s = JSON.parse(readFileSync(join(dataDir, 'sandbox-server.json'), 'utf8'));
  if (!started.includes(s.pid)) started.push(s.pid);
  return s;
}

/** Live background processes serving this data folder (their environment holds the start order, which names it). */
function backgroundProcesses(dataDir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'utf8');
    } catch {
      continue;
    }
    const order = environ.split('\0').find((v) => v.startsWith('RELDIST_SANDBOX_PROCESS='));
    if (order?.includes(JSON.stringify(dataDir))) pids.push(Number(name));
  }
  return pids;
}

const create = (env: NodeJS.ProcessEnv, title: string) =>
  runBin(['release', 'create', '--type', 'single', '--title', title, '--artist', 'Nina Vale', '--label', 'Sandbox Records', '--json', '--quiet'], env);

describe('background sandbox', () => {
  it.each([2, 10, 30, 60])(
    '%i commands at once, on a data folder without a sandbox: one process, nothing lost',
    async (n) => {
      const { dataDir, env } = freshEnv();
      const runs = await Promise.all(
        Array.from({ length: n }, (_, i) => (i % 2 === 0 ? create(env, `At once ${i}`) : runBin(['release', 'list', '--json', '--quiet'], env))),
      );
      const failed = runs.filter((r) => r.code !== 0);
      expect(failed.map((r) => r.stderr)).toEqual([]);
      const { pid } = await stateOf(dataDir);
      expect(alive(pid)).toBe(true);
      expect(backgroundProcesses(dataDir)).toEqual([pid]);
      const list = await runBin(['release', 'list', '--all', '--json'], env);
      const titles = JSON.parse(list.stdout).map((r: { title: string }) => r.title);
      expect(titles.filter((t: string) => t.startsWith('At once ')).length).toBe(Math.ceil(n / 2));
      expect((await stateOf(dataDir)).pid).toBe(pid);
    },
    120_000,
  );

  it('replaces the files of a killed process, and a lock whose holder is gone', async () => {
    const { dataDir, env } = freshEnv();
    expect((await runBin(['lookup', 'countries', '--json'], env)).code).toBe(0);
    const first = await stateOf(dataDir);
    process.kill(first.pid, 'SIGKILL');
    await until('the killed process to be gone', () => !alive(first.pid));
    // A pid that no longer runs holds the lock, as if a command had been killed while starting it.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(dataDir, 'sandbox-server.lock'), gone);
    const r = await runBin(['release', 'list', '--json'], env);
    // Nothing on stderr but the note every sandbox command prints.
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/^note: no service configured, so this uses the local sandbox \(data in [^)]+\);[^\n]*\n$/)]);
    const second = await stateOf(dataDir);
    expect(second.pid).not.toBe(first.pid);
    expect(existsSync(join(dataDir, 'sandbox-server.lock'))).toBe(false);
  }, 60_000);

  it('keeps its token out of command lines and out of files others can read', async () => {
    const { dataDir, env } = freshEnv();
    expect((await runBin(['lookup', 'countries'], env)).code).toBe(0);
    const s = await stateOf(dataDir);
    expect(statSync(join(dataDir, 'sandbox-server.json')).mode & 0o077).toBe(0);
    const cmdline = readFileSync(`/proc/${s.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(s.token);
    expect(readFileSync(`/proc/${s.pid}/environ`, 'utf8')).not.toContain(s.token);
  }, 60_000);

  it('leaves when no command used it for RELDIST_SANDBOX_IDLE', async () => {
    const { dataDir, env } = freshEnv({ RELDIST_SANDBOX_IDLE: '1s' });
    expect((await runBin(['lookup', 'countries'], env)).code).toBe(0);
    const { pid } = await stateOf(dataDir);
    await until('the idle process to leave', () => !alive(pid) && !existsSync(join(dataDir, 'sandbox-server.json')), 20_000);
    // The next command starts a new one.
    expect((await runBin(['lookup', 'countries'], env)).code).toBe(0);
    expect((await stateOf(dataDir)).pid).not.toBe(pid);
  }, 60_000);

  it('RELDIST_SANDBOX_IDLE=0 runs the sandbox in the command itself', async () => {
    const { dataDir, env } = freshEnv({ RELDIST_SANDBOX_IDLE: '0' });
    mkdirSync(dataDir, { recursive: true });
    const r = await runBin(['lookup', 'countries', '--json'], env);
    expect(r.code).toBe(0);
    expect(existsSync(join(dataDir, 'sandbox-server.json'))).toBe(false);
  });
});

describe('the background process switch', () => {
  it('main.ts spells the environment variable as sandbox-state.ts does', async () => {
    const { DAEMON_ENV } = await import('../../src/cli/sandbox-state.js');
    const main = readFileSync(new URL('../../src/cli/main.ts', import.meta.url), 'utf8');
    expect(main).toContain(`const DAEMON_ENV = '${DAEMON_ENV}';`);
  });
});
