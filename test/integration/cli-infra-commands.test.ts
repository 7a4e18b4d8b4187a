// `api`, `auth` and `config` run in-process (buffers for streams) against the real service.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../../src/cli/run-cli.js';

let server: TestServer;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'reldist-cli-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

async function cli(args: string[], options: { env?: Record<string, string>; stdin?: string; auth?: boolean } = {}) {
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const env: Record<string, string> = {
    HOME: home,
    RELDIST_CONFIG_DIR: join(home, 'config'),
    RELDIST_DATA_DIR: join(home, 'data'),
    ...(options.auth === false ? {} : { RELDIST_BASE_URL: server.url, RELDIST_TOKEN: server.tokens.label }),
    ...options.env,
  };
  const code = await runCli(args, { io: { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false }, env });
  return { code, stdout: out, stderr: err };
}

describe('reldist api', () => {
  it('GET prints the JSON body', async () => {
    const r = await cli(['api', 'GET', '/me']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'label' });
  });

  it('POST sends -f/-F fields as a JSON body; -i shows the status line and headers', async () => {
    const r = await cli(['api', 'POST', '/releases', '-f', 'type=single', '-f', 'title=Field Notes', '-f', 'artists[0][name]=Nina Vale', '-f', 'artists[0][role]=primary', '-f', 'label=Northern Lights', '-f', 'explicit=clean']);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ title: 'Field Notes', explicit: 'clean' });
    const got = await cli(['api', 'GET', `/releases/${created.id}`, '-i']);
    expect(got.stdout).toMatch(/^HTTP 200/);
    expect(got.stdout).toMatch(/\nx-request-id: req_/);
  });

  it('--paginate merges every page into one array', async () => {
    for (let i = 0; i < 3; i++) {
      await cli(['api', 'POST', '/releases', '-f', 'type=single', '-f', `title=P${i}`, '-f', 'artists[0][name]=N', '-f', 'artists[0][role]=primary', '-f', 'label=L']);
    }
    const total = JSON.parse((await cli(['api', 'GET', '/releases'])).stdout).meta.total;
    const r = await cli(['api', 'GET', '/releases', '-F', 'perPage=1', '--paginate']);
    expect(r.code).toBe(0);
    const all = JSON.parse(r.stdout);
    expect(Array.isArray(all)).toBe(true);
    expect(all).toHaveLength(total);
  });

  it('--input sends a file or stdin as the body', async () => {
    const body = JSON.stringify({ upc: '036000291452' });
    const r = await cli(['api', 'POST', '/releases/validate/upc', '--input', '-'], { stdin: body });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTypeOf('object');
  });

  it('a 404 prints the error body on stdout and exits 5', async () => {
    const r = await cli(['api', 'GET', '/releases/999999']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).error.code).toBe('not_found');
    expect(r.stderr).toMatch(/^error: .*request req_/);
  });

  it('refuses absolute URLs, unknown methods and tokens in -H', async () => {
    expect((await cli(['api', 'GET', 'https://elsewhere.example/me'])).code).toBe(2);
    expect((await cli(['api', 'FETCH', '/me'])).stderr).toMatch(/not an HTTP method/);
    expect((await cli(['api', 'GET', '/me', '-H', 'Authorization: Bearer x'])).code).toBe(2);
  });

  it('names the base URL when nothing listens there', async () => {
    const r = await cli(['api', 'GET', '/me'], { env: { RELDIST_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot connect to http://127.0.0.1:9: connection refused');
  });
});

describe('reldist auth and config', () => {
  const noEnv = { auth: false } as const;

  it('login checks the token with /me before saving, and a refused token saves nothing', async () => {
    const bad = await cli(['auth', 'login', '--base-url', server.url, '--with-token'], { ...noEnv, stdin: 'rd_not_a_token\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/refused the token; nothing was saved/);
    expect(() => statSync(join(home, 'config', 'config.json'))).toThrow();
  });

  it('login --with-token saves a 0600 profile; status shows a masked hint, never the token', async () => {
    const login = await cli(['auth', 'login', '--base-url', server.url, '--with-token', '--profile', 'work'], { ...noEnv, stdin: `${server.tokens.label}\n` });
    expect(login.code).toBe(0);
    // Piped: the success line is for a person at a terminal; a script gets silence and exit 0.
    expect(login.stderr).toBe('');
    const file = join(home, 'config', 'config.json');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.work.token).toBe(server.tokens.label);

    const status = await cli(['auth', 'status', '--json', '--profile', 'work'], noEnv);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({ profile: 'work', profile_source: 'flag', base_url: server.url, base_url_source: 'profile', token_source: 'profile', token_valid: true });
    expect(s.token_hint).toBe(`rd_…${server.tokens.label.slice(-4)}`);
    expect(status.stdout + status.stderr).not.toContain(server.tokens.label);

    // The profile serves other commands too.
    const me = await cli(['api', 'GET', '/me', '--profile', 'work'], noEnv);
    expect(JSON.parse(me.stdout).kind).toBe('label');
  });

  it('refuses to read a token from a terminal with --with-token', async () => {
    const stdin = new PassThrough();
    const sink = new PassThrough();
    let err = '';
    sink.on('data', (c) => (err += c));
    const code = await runCli(['auth', 'login', '--base-url', server.url, '--with-token'], {
      io: { stdin, stdout: new PassThrough(), stderr: sink, stdinIsTTY: true, stdoutIsTTY: false, stderrIsTTY: false },
      env: { RELDIST_CONFIG_DIR: join(home, 'config') },
    });
    expect(code).toBe(2);
    expect(err).toMatch(/stdin is a terminal/);
  });

  it('without a terminal, login without --with-token names the flag to pass', async () => {
    const r = await cli(['auth', 'login', '--base-url', server.url], noEnv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint: pass --with-token/);
  });

  it('config set/get/list/unset for non-secret settings', async () => {
    expect((await cli(['config', 'set', 'timeout', '45'], noEnv)).code).toBe(0);
    expect((await cli(['config', 'get', 'timeout'], noEnv)).stdout).toBe('45\n');
    expect((await cli(['config', 'set', 'timeout', 'soon'], noEnv)).code).toBe(2);
    expect((await cli(['config', 'set', 'token', 'x'], noEnv)).stderr).toMatch(/unknown setting "token"/);
    const list = JSON.parse((await cli(['config', 'list', '--json'], noEnv)).stdout);
    expect(list).toMatchObject({ timeout: '45' });
    expect((await cli(['config', 'unset', 'timeout'], noEnv)).code).toBe(0);
    expect((await cli(['config', 'get', 'timeout', '--json'], noEnv)).stdout.trim()).toBe('null');
  });

  it('a profile token never goes to another --base-url; status then says not logged in', async () => {
    const r = await cli(['auth', 'status', '--profile', 'work', '--base-url', 'http://127.0.0.1:9'], noEnv);
    expect(r.code).toBe(4);
    expect(r.stdout).not.toContain(server.tokens.label);
  });

  it('logout forgets the profile', async () => {
    expect((await cli(['auth', 'logout', '--profile', 'work'], noEnv)).code).toBe(0);
    const again = await cli(['api', 'GET', '/me', '--profile', 'work'], noEnv);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no profile named "work"/);
  });
});
