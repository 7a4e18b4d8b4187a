// `reldist config set|get|list|unset` run in-process.
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const harness = useCli();
const cli = (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) => harness.run(args, options);
/** No RELDIST_BASE_URL or RELDIST_TOKEN (empty counts as unset). */
const noEnv = { env: { RELDIST_BASE_URL: '', RELDIST_TOKEN: '' } } as const;

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
});
