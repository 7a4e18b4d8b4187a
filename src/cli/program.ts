// The whole command tree, built synchronously once every group is loaded (tests of every command's
// help and flags). The CLI itself does not come through here: run-cli.ts loads only the group it
// invokes, and shell completion uses createFullProgram. The top-level await keeps this module out
// of the bundle, which is CommonJS (see scripts/build.mjs).
import type { Command } from 'commander';
import { createProgram, type ProgramDeps } from './build-program.js';
import { commandGroups } from './commands/index.js';
import { runner } from './commands/runners.js';

const allGroups = await Promise.all(commandGroups.map((g) => g.load()));

/** Declares every group, or with `deps.only` only that group's sub-commands. */
export function buildProgram(deps: ProgramDeps): Command {
  return createProgram({ runner, ...deps }, deps.only === undefined ? allGroups : allGroups.filter((g) => g.name === deps.only));
}

export { invokedName, makeContext, runDeferred, toUsageError, type ProgramDeps } from './build-program.js';
export { VERSION } from './version.js';
export { helpTopics } from './help-topics.js';
export { CommanderError } from 'commander';
