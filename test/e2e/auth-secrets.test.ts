// A token never appears in any output or debug trace of the built CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cleanEnv, runBin, type CliRun } from './sandbox-helpers.js';

let server: TestServer;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'reldist-e2e-auth-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('tokens stay secret', () => {
  it('login, status, api and errors under --debug never print the token', async () => {
    const token = server.tokens.label;
    const base = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: join(home, 'data') });
    const withEnv = { ...base, RELDIST_BASE_URL: server.url, RELDIST_TOKEN: token };
    const runs: [string, CliRun][] = [];
    const run = async (name: string, p: Promise<CliRun>) => {
      const r = await p;
      runs.push([name, r]);
      return r;
    };

    expect((await run('login', runBin(['auth', 'login', '--base-url', server.url, '--with-token', '--debug'], base, `${token}\n`))).code).toBe(0);
    expect((await run('status', runBin(['auth', 'status', '--debug'], base))).code).toBe(0);
    expect((await run('status json', runBin(['auth', 'status', '--json', '--debug'], base))).code).toBe(0);
    expect((await run('api env', runBin(['api', 'GET', '/me', '--debug', '-i'], withEnv))).code).toBe(0);
    expect((await run('api paginate (undici)', runBin(['api', 'GET', '/releases', '--paginate', '--debug'], withEnv))).code).toBe(0);
    expect((await run('api 404', runBin(['api', 'GET', '/releases/999999', '--debug'], withEnv))).code).toBe(5);
    expect((await run('config list', runBin(['config', 'list', '--json', '--debug'], base))).code).toBe(0);

    const debugged = runs.find(([n]) => n === 'api env')![1];
    expect(debugged.stderr).toMatch(/> authorization: Bearer \[redacted\]/);
    for (const [name, r] of runs) {
      expect(`${r.stdout}\n${r.stderr}`, name).not.toContain(token);
      expect(`${r.stdout}\n${r.stderr}`, name).not.toContain(token.slice(3, -4));
    }
  });
});
