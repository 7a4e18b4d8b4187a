// The built binary under CI, as a runner spawns it: with nothing configured, or with the secrets
// it cannot see (empty variables), it refuses with exit 4 and starts no sandbox; asked for by
// name, the sandbox answers and says so.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-ci-'));
const dataDir = join(home, 'data');
const base = { HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: dataDir };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('under CI', () => {
  it('the issue: CI=true RELDIST_BASE_URL= RELDIST_TOKEN= release apply --submit is exit 4 naming both; no sandbox, nothing made', async () => {
    const r = await runBin(
      ['release', 'apply', 'examples/first-release/release.yaml', '--submit'],
      cleanEnv({ ...base, CI: 'true', RELDIST_BASE_URL: '', RELDIST_TOKEN: '' }),
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: RELDIST_BASE_URL and RELDIST_TOKEN are set but empty\nhint: an empty variable is often a CI secret the job cannot see .*--sandbox or set RELDIST_SANDBOX=1\n$/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('nothing configured: exit 4 naming the variable that said CI; no sandbox starts', async () => {
    const r = await runBin(['release', 'list', '--json'], cleanEnv({ ...base, GITLAB_CI: 'true' }));
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        code: 'not_configured',
        message: 'no service configured and this is CI (GITLAB_CI): reldist does not fall back to the local sandbox',
        hint: 'set RELDIST_BASE_URL and RELDIST_TOKEN (or run `reldist auth login`); for the local sandbox on purpose, pass --sandbox or set RELDIST_SANDBOX=1',
      },
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('--sandbox asks for it by name: it answers, and says so', async () => {
    const r = await runBin(['--sandbox', 'release', 'list', '--json'], cleanEnv({ ...base, CI: 'true', RELDIST_SANDBOX_IDLE: '0' }));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toBe(`note: using the local sandbox, as --sandbox asks (data in ${dataDir})\n`);
  });

  it('serve --sandbox is still the flag of serve (the global flag reaches it): demo tokens printed', async () => {
    // --timeout ends the standing service, so that the test is bounded.
    const r = await runBin(['serve', '--sandbox', '--port', '0', '--data-dir', join(home, 'served'), '--timeout', '1500ms'], cleanEnv({ ...base, CI: 'true' }));
    const first = JSON.parse(r.stdout.split('\n')[0]!);
    expect(first).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), tokens: { label: expect.any(String) } });
    expect(r.code).toBe(7);
  });
});
