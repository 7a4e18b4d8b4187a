// Every declared command has a run file in commands/runners.ts, and every run file a declaration.
import { expect, test } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { commandPath } from '../../src/cli/build-program.js';
import { runners } from '../../src/cli/commands/runners.js';
import { PassThrough } from 'node:stream';

// Commander keeps whether a command runs by itself private; `serve` both runs and has `serve token …`.
const runsItself = (cmd: Command) => (cmd as unknown as { _actionHandler: unknown })._actionHandler != null;

function leaves(cmd: Command): string[] {
  if (cmd.commands.length === 0) return [commandPath(cmd)];
  return [...(runsItself(cmd) ? [commandPath(cmd)] : []), ...cmd.commands.flatMap(leaves)];
}

test('the runner table and the declared commands match one to one', async () => {
  const out = new PassThrough();
  const io = { stdin: new PassThrough(), stdout: out, stderr: out, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const program = buildProgram({ io: io as never, env: {} });
  expect(program.commands.flatMap(leaves).sort()).toEqual(Object.keys(runners).sort());
  for (const load of Object.values(runners)) expect(typeof (await load()).run).toBe('function');
});
