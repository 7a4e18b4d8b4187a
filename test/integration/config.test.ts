// `reldist config set|get|list|unset` run in-process.
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const harness = useCli();
const cli = (args: string[], options: { env?: Record<string, string | undefined>; stdin?: string } = {}) => harness.run(args, options);
/** No RELDIST_BASE_URL or RELDIST_TOKEN (taken away: an empty one is an error). */
const noEnv = { env: { RELDIST_BASE_URL: undefined, RELDIST_TOKEN: undefined } } as const;

describe('reldist auth and config', () => {
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

  it('config set profile refuses a profile that does not exist, and writes nothing', async () => {
    const typo = await cli(['config', 'set', 'profile', 'wrok'], noEnv);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('error: profile: no profile named "wrok" (none saved)\nhint: create it first with `reldist auth login --profile wrok`\n');
    expect((await cli(['config', 'get', 'profile', '--json'], noEnv)).stdout.trim()).toBe('null');
    const login = await cli(['auth', 'login', '--base-url', harness.server.url, '--with-token', '--profile', 'work'], {
      ...noEnv,
      stdin: `${harness.server.tokens.label}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect((await cli(['config', 'set', 'profile', 'wrok'], noEnv)).stderr).toContain('no profile named "wrok" (saved: work)');
    expect((await cli(['config', 'set', 'profile', 'work'], noEnv)).code).toBe(0);
    expect((await cli(['config', 'get', 'profile'], noEnv)).stdout).toBe('work\n');
    expect((await cli(['config', 'unset', 'profile'], noEnv)).code).toBe(0);
  });
});
