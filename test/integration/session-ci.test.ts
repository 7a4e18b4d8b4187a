// Under CI reldist never falls back to the embedded sandbox, an empty RELDIST_* variable is never
// read as "not set", the sandbox says so on every command that uses it, each retry prints a line
// (terminal or not), and a command under CI is bounded without --timeout. In-process, against the
// real service (through the seeded fault proxy for retries and hangs) and the embedded sandbox.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli, writeWav } from './cli-harness.js';
import { createRelease } from '../helpers/releases.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';

const cli = useCli();
/** Nothing configured: the harness's base URL and token taken away. */
const nothing = { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined };
const dataDir = () => join(cli.configDir, 'data');
const WAYS_OUT =
  'hint: set RELDIST_BASE_URL and RELDIST_TOKEN (or run `reldist auth login`); for the local sandbox on purpose, pass --sandbox or set RELDIST_SANDBOX=1\n';

describe('no service configured under CI: refused, never the sandbox', () => {
  it('CI=true and nothing configured is exit 4 naming CI, with both ways out; nothing starts', async () => {
    const r = await cli.run(['release', 'list'], { env: { ...nothing, CI: 'true' } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: no service configured and this is CI (CI=true): reldist does not fall back to the local sandbox\n${WAYS_OUT}`);
    expect(existsSync(dataDir())).toBe(false);
  });

  it("a CI system's own variable counts even beside CI=false", async () => {
    const r = await cli.run(['release', 'list', '--json'], { env: { ...nothing, CI: 'false', GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'not_configured', message: expect.stringContaining('this is CI (GITHUB_ACTIONS)') });
    expect(existsSync(dataDir())).toBe(false);
  });

  it('the issue: CI=true RELDIST_BASE_URL= RELDIST_TOKEN= release apply --submit is exit 4 naming both, nothing made', async () => {
    const r = await cli.run(['release', 'apply', 'examples/first-release/release.yaml', '--submit'], {
      env: { CI: 'true', RELDIST_BASE_URL: '', RELDIST_TOKEN: '' },
    });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: RELDIST_BASE_URL and RELDIST_TOKEN are set but empty');
    expect(r.stderr).toContain('a CI secret the job cannot see');
    expect(existsSync(dataDir())).toBe(false);
  });

  it('an empty RELDIST_BASE_URL, RELDIST_TOKEN or RELDIST_PROFILE is exit 4 naming it, CI or not', async () => {
    for (const [name, env] of [
      ['RELDIST_TOKEN', { RELDIST_TOKEN: '' }],
      ['RELDIST_BASE_URL', { RELDIST_BASE_URL: ' ' }],
      ['RELDIST_PROFILE', { RELDIST_PROFILE: '' }],
    ] as const) {
      const r = await cli.run(['release', 'list'], { env });
      expect(r.code, name).toBe(4);
      expect(r.stderr.split('\n')[0], name).toBe(`error: ${name} is set but empty`);
    }
    // A flag in its place makes the variable irrelevant.
    const flag = await cli.run(['release', 'list', '--base-url', cli.server.url], { env: { RELDIST_BASE_URL: '' } });
    expect(flag.code, flag.stderr).toBe(0);
  });

  it('any other empty RELDIST_* variable, CI or not, forbids the fallback (exit 4)', async () => {
    const r = await cli.run(['release', 'list'], { env: { ...nothing, RELDIST_SANDBOX_IDLE: '' } });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: no service configured and RELDIST_SANDBOX_IDLE is set but empty: reldist does not fall back to the local sandbox',
    );
    expect(existsSync(dataDir())).toBe(false);
  });

  it('asking for the sandbox beside a service is a usage error, either way; a flag beats RELDIST_SANDBOX', async () => {
    const both = await cli.run(['release', 'list', '--sandbox', '--base-url', cli.server.url], { env: nothing });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('error: --sandbox and --base-url both say where requests go');
    const env = await cli.run(['release', 'list'], { env: { RELDIST_SANDBOX: '1' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('error: RELDIST_SANDBOX=1 and RELDIST_BASE_URL both say where requests go');
    const odd = await cli.run(['release', 'list'], { env: { ...nothing, RELDIST_SANDBOX: 'yes' } });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('error: RELDIST_SANDBOX: "yes" is not 1 or 0');
    const flagWins = await cli.run(['release', 'list', '--base-url', cli.server.url], { env: { RELDIST_BASE_URL: undefined, RELDIST_SANDBOX: '1' } });
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(flagWins.stderr).toBe('');
    expect(existsSync(dataDir())).toBe(false);
  });
});

describe('the sandbox asked for by name', () => {
  it('works under CI with --sandbox or RELDIST_SANDBOX=1, and says so on every command', async () => {
    const first = await cli.run(['release', 'list', '--json'], { env: { ...nothing, CI: 'true', RELDIST_SANDBOX: '1' } });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(expect.any(Array));
    expect(first.stderr).toBe(`note: using the local sandbox, as RELDIST_SANDBOX=1 asks (data in ${dataDir()})\n`);
    for (let i = 0; i < 2; i++) {
      const again = await cli.run(['--sandbox', 'release', 'list'], { env: { ...nothing, CI: 'true' } });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toBe(`note: using the local sandbox, as --sandbox asks (data in ${dataDir()})\n`);
    }
    const quiet = await cli.run(['release', 'list', '--sandbox', '--quiet'], { env: { ...nothing, CI: 'true' } });
    expect(quiet.stderr).toBe('');
  });

  it('the fallback (not CI, nothing configured) says so every time too, not once per data folder', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await cli.run(['release', 'list'], { env: nothing });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^note: no service configured, so this uses the local sandbox \(data in .+\); for a real service run `reldist auth login --base-url <url>` or set RELDIST_BASE_URL and RELDIST_TOKEN\n$/,
      );
    }
  });
});

describe('retries print one line each on stderr, piped or not', () => {
  let work: string;
  const proxies: FaultProxy[] = [];
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reldist-retry-lines-'));
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await rm(work, { recursive: true, force: true });
  });
  async function proxyWith(faults: Parameters<typeof startFaultProxy>[0]['faults'], match?: (method: string, path: string) => boolean): Promise<FaultProxy> {
    const p = await startFaultProxy({ target: cli.server.url, seed: 3, faults, ...(match ? { match } : {}) });
    proxies.push(p);
    return p;
  }

  it('a read that meets 503 three times: three lines saying what, why, the wait and the attempt', async () => {
    const proxy = await proxyWith({ unavailable: 1 });
    const r = await cli.run(['release', 'list', '--json'], { url: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    lines.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^retrying in \\d+\\.\\ds \\(attempt ${i + 2} of 4\\): list releases: the service answered 503 \\(unavailable\\)$`)),
    );
    expect(proxy.stats.byDecision.unavailable).toBe(3);
    const quiet = await cli.run(['release', 'list', '--quiet'], { url: proxy.url });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('an upload cut off: the line names the request in words, never its signed address nor the token', async () => {
    const release = await createRelease(cli.server, cli.server.tokens.label);
    const wav = join(work, 'cut.wav');
    await writeWav(wav, { seconds: 31 });
    const proxy = await proxyWith({ dropBefore: 1 }, (method, path) => method === 'PUT' && path.startsWith('/uploads/'));
    const r = await cli.run(['track', 'upload', String(release.id), wav], { url: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    const retries = r.stderr.split('\n').filter((l) => l.startsWith('retrying'));
    expect(retries).toHaveLength(3);
    for (const line of retries) expect(line).toMatch(/^retrying in \d+\.\ds \(attempt \d of 4\): receive an audio file: the connection was cut \(\w+\)$/);
    expect(r.stderr).not.toContain(cli.server.tokens.label);
    expect(r.stderr).not.toContain('/uploads/');
  });
});

describe('under CI a command is bounded without --timeout', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    // Every read held 1.5 s: longer than the shortened CI bound below, far shorter than a test.
    proxy = await startFaultProxy({ target: cli.server.url, seed: 5, faults: { delay: 1, delayMs: [1500, 1500] }, match: (method) => method === 'GET' });
  });
  afterAll(() => proxy.close());

  it('ends with exit 7 and a hint naming the CI default and how to lift it', async () => {
    const r = await cli.run(['release', 'list'], { url: proxy.url, env: { CI: 'true' }, ciTimeoutMs: 500 });
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(
      'error: timed out after 500ms waiting for the service to list releases; nothing was changed on the service: safe to run again\n' +
        'hint: under CI (CI=true) every command stops after 500ms unless --timeout says otherwise: a longer --timeout waits longer; --timeout 0 waits forever\n',
    );
  });

  it('--timeout 0 lifts it; without CI there is no bound', async () => {
    const lifted = await cli.run(['release', 'list', '--timeout', '0'], { url: proxy.url, env: { CI: 'true' }, ciTimeoutMs: 500 });
    expect(lifted.code, lifted.stderr).toBe(0);
    const notCi = await cli.run(['release', 'list'], { url: proxy.url, env: { CI: '0' }, ciTimeoutMs: 500 });
    expect(notCi.code, notCi.stderr).toBe(0);
  });
});
