// The whole command tree, every group declared (shell completion, tests of every command's help).
// A run of the CLI does not come through here: run-cli.ts loads only the group it invokes.
import type { Command } from 'commander';
import { createProgram, type ProgramDeps } from './build-program.js';
import { commandGroups } from './commands/index.js';

const allGroups = await Promise.all(commandGroups.map((g) => g.load()));

/** Declares every group, or with `deps.only` only that group's sub-commands. */
export function buildProgram(deps: ProgramDeps): Command {
  return createProgram(deps, deps.only === undefined ? allGroups : allGroups.filter((g) => g.name === deps.only));
}

export { invokedName, makeContext, runDeferred, toUsageError, type ProgramDeps } from './build-program.js';
export { VERSION } from './version.js';
export { helpTopics } from './help-topics.js';
export { CommanderError } from 'commander';
