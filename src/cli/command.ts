import type { Command } from 'commander';
import type { Context } from './context.js';

/**
 * One command: its flags, help and a run function over an injected Context. Declarations are
 * cheap to load (everything heavy is imported inside `run`), so `--help` never pays for them.
 */
export interface CommandSpec<Opts = Record<string, unknown>> {
  name: string;
  /** Positional arguments in commander syntax, e.g. `<id>` or `[codes...]`. */
  args?: string;
  summary: string;
  /** Shown under the summary in --help. */
  description?: string;
  examples: string[];
  aliases?: string[];
  configure?(cmd: Command): void;
  run(ctx: Context, opts: Opts, args: string[]): Promise<void>;
}

/** A noun whose verbs are commands, or further groups (`reldist label artists list`). */
export interface GroupSpec {
  name: string;
  summary: string;
  examples?: string[];
  commands: (CommandSpec<any> | GroupSpec)[];
}

export function isGroup(spec: CommandSpec<any> | GroupSpec): spec is GroupSpec {
  return 'commands' in spec;
}

export function defineCommand<Opts>(spec: CommandSpec<Opts>): CommandSpec<Opts> {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}

export function examplesHelp(examples: string[]): string {
  return examples.length === 0 ? '' : `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`;
}
