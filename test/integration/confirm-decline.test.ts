// A "no" at a confirmation is an answer, not a failure (as gh): exit 0, one word on stderr, nothing
// changed. Ctrl-C at a prompt stays an interruption (130; release-wizard tests).
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Services } from '../../src/cli/context.js';
import { runCli as runArgv } from '../../src/cli/run-cli.js';
import { createRelease } from '../helpers/releases.js';
import { useCli } from './cli-harness.js';

const cli = useCli();

describe('declining a confirmation', () => {
  it('release delete answered no: exit 0, "cancelled" on stderr, the release still there', async () => {
    const release = await createRelease(cli.server, cli.server.tokens.label);
    let stdout = '';
    let stderr = '';
    const sink = (into: (text: string) => void) =>
      new Writable({
        write(chunk, _enc, cb) {
          into(String(chunk));
          cb();
        },
      });
    const asked: string[] = [];
    const prompter = {
      confirm: async (q: { message: string }) => {
        asked.push(q.message);
        return false;
      },
    } as unknown as Awaited<ReturnType<Services['prompts']>>;
    const code = await runArgv(['release', 'delete', String(release.id)], {
      io: {
        stdin: new PassThrough(),
        stdout: sink((t) => (stdout += t)),
        stderr: sink((t) => (stderr += t)),
        stdinIsTTY: true,
        stdoutIsTTY: true,
        stderrIsTTY: true,
      },
      env: {
        RELDIST_BASE_URL: cli.server.url,
        RELDIST_TOKEN: cli.server.tokens.label,
        RELDIST_CONFIG_DIR: cli.configDir,
        RELDIST_DATA_DIR: join(cli.configDir, 'data'),
        HOME: cli.configDir,
        NO_COLOR: '1',
      },
      services: { prompts: async () => prompter },
    });
    expect(code, stderr).toBe(0);
    expect(asked).toHaveLength(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('cancelled: nothing was changed\n');
    expect((await cli.run(['release', 'get', String(release.id)])).code).toBe(0);
  });
});
