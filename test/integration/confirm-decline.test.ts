// A "no" at a confirmation is an answer, not a failure (as gh): exit 0, one word on stderr, nothing
// changed. Ctrl-C at a prompt stays an interruption (130; release-wizard tests).
import { describe, expect, it } from 'vitest';
import { createRelease } from '../helpers/releases.js';
import { useCli } from './cli-harness.js';

const cli = useCli();

describe('declining a confirmation', () => {
  it('release delete answered no: exit 0, "cancelled" on stderr, the release still there', async () => {
    const release = await createRelease(cli.server, cli.server.tokens.label);
    const asked: string[] = [];
    const { code, stdout, stderr } = await cli.run(['release', 'delete', String(release.id)], { tty: true, person: { answer: false, asked } });
    expect(code, stderr).toBe(0);
    expect(asked).toHaveLength(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('cancelled: nothing was changed\n');
    expect((await cli.run(['release', 'get', String(release.id)])).code).toBe(0);
  });
});
