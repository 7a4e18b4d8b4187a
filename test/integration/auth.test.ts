// `reldist auth login|status|logout` run in-process against the real service.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { useCli } from './cli-harness.js';

const harness = useCli();
const cli = (args: string[], options: { env?: Record<string, string | undefined>; stdin?: string } = {}) => harness.run(args, options);
/** No RELDIST_BASE_URL or RELDIST_TOKEN (taken away: an empty one is an error): only what auth login saved. */
const noEnv = { env: { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined } } as const;

describe('reldist auth and config', () => {
  it('login checks the token with /me before saving, and a refused token saves nothing', async () => {
    const bad = await cli(['auth', 'login', '--base-url', harness.server.url, '--with-token'], { ...noEnv, stdin: 'rd_not_a_token\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/refused the token; nothing was saved/);
    expect(() => statSync(join(harness.configDir, 'config.json'))).toThrow();
  });

  it('login --with-token saves a 0600 profile; status shows a masked hint, never the token', async () => {
    const login = await cli(['auth', 'login', '--base-url', harness.server.url, '--with-token', '--profile', 'work'], {
      ...noEnv,
      stdin: `${harness.server.tokens.label}\n`,
    });
    expect(login.code).toBe(0);
    // Piped: the success line is for a person at a terminal; a script gets silence and exit 0.
    expect(login.stderr).toBe('');
    const file = join(harness.configDir, 'config.json');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.work.token).toBe(harness.server.tokens.label);

    const status = await cli(['auth', 'status', '--json', '--profile', 'work'], noEnv);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({
      profile: 'work',
      profile_source: 'flag',
      base_url: harness.server.url,
      base_url_source: 'profile',
      token_source: 'profile',
      token_valid: true,
    });
    expect(s.token_hint).toBe(`rd_…${harness.server.tokens.label.slice(-4)}`);
    expect(status.stdout + status.stderr).not.toContain(harness.server.tokens.label);

    // The profile serves other commands too.
    const me = await cli(['api', 'GET', '/me', '--profile', 'work'], noEnv);
    expect(JSON.parse(me.stdout).kind).toBe('label');
  });

  // The harness never gives a terminal for stdin, so this one runs the CLI with its own streams.
  it('refuses to read a token from a terminal with --with-token', async () => {
    const stdin = new PassThrough();
    const sink = new PassThrough();
    let err = '';
    sink.on('data', (c) => (err += c));
    const code = await runCli(['auth', 'login', '--base-url', harness.server.url, '--with-token'], {
      io: { stdin, stdout: new PassThrough(), stderr: sink, stdinIsTTY: true, stdoutIsTTY: false, stderrIsTTY: false },
      env: { RELDIST_CONFIG_DIR: harness.configDir },
    });
    expect(code).toBe(2);
    expect(err).toMatch(/stdin is a terminal/);
  });

  it('without a terminal, login without --with-token names the flag to pass', async () => {
    const r = await cli(['auth', 'login', '--base-url', harness.server.url], noEnv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint: pass --with-token/);
  });

  it('a profile token never goes to another --base-url; status then says not logged in', async () => {
    const r = await cli(['auth', 'status', '--profile', 'work', '--base-url', 'http://127.0.0.1:9'], noEnv);
    expect(r.code).toBe(4);
    expect(r.stdout).not.toContain(harness.server.tokens.label);
  });

  it('logout forgets the profile', async () => {
    expect((await cli(['auth', 'logout', '--profile', 'work'], noEnv)).code).toBe(0);
    const again = await cli(['api', 'GET', '/me', '--profile', 'work'], noEnv);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no profile named "work"/);
  });
});
