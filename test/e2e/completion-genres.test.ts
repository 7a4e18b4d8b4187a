// Completion of `--genre`: the genres are the service's list (`lookup genres`), so the scripts ask
// `reldist __complete genre` at a Tab press, which answers from a cache in the config folder
// refreshed from the service, bounded and silent. Bash runs its real completion function against
// the built binary (a `reldist` on PATH); zsh and fish are checked as text.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BIN } from './cli-e2e-helpers.js';
import { cleanEnv, runBin } from './sandbox-helpers.js';

const hasBash = spawnSync('bash', ['--version']).status === 0;
const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-genres-'));
const shim = join(home, 'bin');
let server: TestServer;
let script: string;

/** Each test its own config folder (and so its own cache). */
let folders = 0;
function envFor(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const config = join(home, `config-${++folders}`);
  const base = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: config, RELDIST_DATA_DIR: join(home, `data-${folders}`), ...extra });
  return { ...base, PATH: `${shim}:${base.PATH ?? ''}` };
}

beforeAll(async () => {
  server = await startTestServer();
  mkdirSync(shim);
  writeFileSync(join(shim, 'reldist'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(shim, 'reldist'), 0o755);
  const r = await runBin(['completion', 'bash'], cleanEnv({ HOME: home }));
  expect(r.code, r.stderr).toBe(0);
  script = join(home, 'reldist.bash');
  writeFileSync(script, r.stdout);
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/**
 * Runs a program without blocking this process (the test service answers from it). A loose
 * bound: the command waits for the service under a second; only a hang would reach it.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => (signal ? reject(new Error(`${command} hung: ${signal}`)) : resolve({ code, stdout, stderr })));
  });
}

/** What bash's completion function offers after `words` (the last one being completed). */
async function bashComplete(env: NodeJS.ProcessEnv, words: string[]): Promise<string[]> {
  const line = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const cmd = `source '${script}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _reldist; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await run('bash', ['-c', cmd], env);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

const ask = (env: NodeJS.ProcessEnv, list = 'genre') => run(process.execPath, [BIN, '__complete', list], env);

describe('completion of --genre', () => {
  it.skipIf(!hasBash)("bash offers the service's genres, matched in any case, each quoted for the shell", async () => {
    const env = envFor({ RELDIST_BASE_URL: server.url, RELDIST_TOKEN: server.tokens.label });
    expect(await bashComplete(env, ['reldist', 'release', 'create', '--genre', 'El'])).toEqual(['Electronic']);
    expect(await bashComplete(env, ['reldist', 'release', 'edit', '42', '--genre', 'e'])).toEqual(['Easy\\ Listening', 'Electronic', 'Experimental']);
    expect(await bashComplete(env, ['reldist', 'release', 'create', '--subgenre', 'chi'])).toEqual(["Children\\'s\\ Music"]);
    expect(await bashComplete(env, ['reldist', 'prefs', 'label', '--default-genre', 'Hip'])).toEqual(['Hip-Hop/Rap']);
    // Never file names instead (the script's default for a flag's value).
    expect(await bashComplete(env, ['reldist', 'release', 'create', '--genre', 'package.j'])).toEqual([]);
  });

  it('answers from the cache it keeps (0600), without the service, for a day', async () => {
    const own = await startTestServer();
    const env = envFor({ RELDIST_BASE_URL: own.url, RELDIST_TOKEN: own.tokens.label });
    const first = await ask(env);
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout.split('\n')).toEqual(expect.arrayContaining(['Electronic', "Children's Music", 'Hip-Hop/Rap']));
    const cache = join(env.RELDIST_CONFIG_DIR!, 'completion-cache.json');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    await own.close();
    const again = await ask(env);
    expect([again.code, again.stdout, again.stderr]).toEqual([0, first.stdout, '']);
  });

  it('a service that does not answer: the stale list, after a bounded wait, nothing on stderr', async () => {
    // Accepts connections and never answers.
    const held: Socket[] = [];
    const silent: Server = createServer((s) => void held.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const env = envFor({ RELDIST_BASE_URL: url, RELDIST_TOKEN: 'rd_x' });
      const none = await ask(env);
      expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
      // A list kept two days ago: too old to be used without asking, offered when the service does not answer.
      mkdirSync(env.RELDIST_CONFIG_DIR!, { recursive: true });
      const old = new Date(Date.now() - 2 * 24 * 3_600_000).toISOString();
      writeFileSync(
        join(env.RELDIST_CONFIG_DIR!, 'completion-cache.json'),
        JSON.stringify({ format: 1, services: { [url]: { genre: { values: ['Jazz', 'Folk'], fetched_at: old } } } }),
      );
      const stale = await ask(env);
      expect([stale.code, stale.stdout, stale.stderr]).toEqual([0, 'Jazz\nFolk\n', '']);
      expect(held.length).toBeGreaterThanOrEqual(2);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('nothing configured: no sandbox is started for a Tab press, nothing offered; an unknown list: nothing', async () => {
    const env = envFor();
    const r = await ask(env);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(existsSync(join(env.RELDIST_DATA_DIR!, 'sandbox-server.json'))).toBe(false);
    const unknown = await ask(envFor({ RELDIST_BASE_URL: server.url, RELDIST_TOKEN: server.tokens.label }), 'colour');
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([0, '', '']);
  });

  it('zsh and fish ask the same command for the same flags', async () => {
    const zsh = (await runBin(['completion', 'zsh'], cleanEnv({ HOME: home }))).stdout;
    expect(zsh).toContain(
      `'release/create --genre') values=(\${(f)"$(command reldist __complete genre 2>/dev/null </dev/null)"}); compadd -a values; return ;;`,
    );
    expect(zsh).toContain(`'prefs/label --default-genre') values=(`);
    const fish = (await runBin(['completion', 'fish'], cleanEnv({ HOME: home }))).stdout;
    expect(fish).toContain(
      `complete -c reldist -n '__reldist_at \\'release/edit\\'' -l subgenre -x -a '(command reldist __complete genre 2>/dev/null </dev/null)'`,
    );
  });
});
