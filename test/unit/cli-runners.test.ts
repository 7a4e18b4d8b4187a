// Every declared command has a run file in commands/runners.ts, and every run file a declaration.
import { expect, test } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { commandPath } from '../../src/cli/build-program.js';
import { runners } from '../../src/cli/commands/runners.js';
import { PassThrough } from 'node:stream';

function leaves(cmd: Command): string[] {
  return cmd.commands.length === 0 ? [commandPath(cmd)] : cmd.commands.flatMap(leaves);
}

test('the runner table and the declared commands match one to one', async () => {
  const out = new PassThrough();
  const io = { stdin: new PassThrough(), stdout: out, stderr: out, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const program = buildProgram({ io: io as never, env: {} });
  expect(program.commands.flatMap(leaves).sort()).toEqual(Object.keys(runners).sort());
  for (const load of Object.values(runners)) expect(typeof (await load()).run).toBe('function');
});
