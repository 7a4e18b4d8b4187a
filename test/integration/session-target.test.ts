// The embedded sandbox stands in only when nothing at all is configured: a missing profile, a base
// URL without a token or a token without a base URL is an error naming the missing piece, on a
// terminal and piped alike, and nothing is sent anywhere.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli();

describe('what is configured, or not', () => {
  for (const tty of [false, true]) {
    const mode = tty ? 'terminal' : 'piped';

    it(`${mode}: a profile named by --profile or RELDIST_PROFILE that does not exist is exit 2`, async () => {
      const flag = await cli.run(['release', 'list', '--profile', 'typo'], { tty, env: { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined } });
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain('error: no profile named "typo" (from --profile)');
      const env = await cli.run(['release', 'list'], { tty, env: { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined, RELDIST_PROFILE: 'typo' } });
      expect(env.code).toBe(2);
      expect(env.stderr).toContain('(from RELDIST_PROFILE)');
      expect(existsSync(join(cli.configDir, 'data'))).toBe(false);
    });

    it(`${mode}: a token without a base URL is exit 2 naming RELDIST_BASE_URL; the sandbox does not start`, async () => {
      const r = await cli.run(['release', 'list'], { tty, env: { RELDIST_BASE_URL: undefined } });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: RELDIST_TOKEN is set but no service is.*\nhint: set RELDIST_BASE_URL/);
      expect(existsSync(join(cli.configDir, 'data'))).toBe(false);
    });

    it(`${mode}: a base URL without a token is exit 4 naming the URL and where it came from`, async () => {
      const env = await cli.run(['release', 'list'], { tty, env: { RELDIST_TOKEN: undefined } });
      expect(env.code).toBe(4);
      expect(env.stderr).toContain(`error: no token for ${cli.server.url} (from RELDIST_BASE_URL)`);
      expect(env.stderr).toContain(`hint: run \`reldist auth login --base-url ${cli.server.url}\` or set RELDIST_TOKEN`);
      const flag = await cli.run(['release', 'list', '--base-url', cli.server.url], { tty, env: { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined } });
      expect(flag.code).toBe(4);
      expect(flag.stderr).toContain('(from --base-url)');
    });
  }

  it('with --json the error is one JSON object', async () => {
    const r = await cli.run(['release', 'list', '--json'], { env: { RELDIST_BASE_URL: undefined } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'usage' } });
  });
});
