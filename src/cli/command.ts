import type { Command } from 'commander';
import type { Context } from './context.js';

/**
 * One command as `--help` and shell completion see it: name, arguments, help text and flags.
 * Declarations only: a group's `spec.ts` holds its verbs' specs and stays cheap to load; what a
 * verb does lives in its own file (`<verb>.ts`, exporting `run`), loaded through runners.ts.
 * `Opts` ties the spec to its run function's options (see VerbModule).
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
  /** Groups under a command that also runs by itself (`reldist serve token create`). */
  subgroups?: GroupSpec[];
  /**
   * Also sees the flags of the commands above it: under a command with subgroups, a flag both
   * declare (`serve --data-dir`, `serve token create --data-dir`) is parsed by the upper one.
   */
  inheritsOptions?: boolean;
  /**
   * Running it again after it stopped half-way (--timeout, a lost connection) converges on the
   * same result, never a duplicate: the --timeout line then says "safe to run again".
   */
  safeToRerun?: boolean;
  /** Runs until stopped (`serve`): not bounded by the default --timeout under CI. */
  runsUntilStopped?: boolean;
  /** Never set: carries the options' type for RunFn. */
  readonly __opts?: Opts;
}

/** A noun whose verbs are commands, or further groups (`reldist label artists list`). */
export interface GroupSpec {
  name: string;
  summary: string;
  examples?: string[];
  commands: (CommandSpec<any> | GroupSpec)[];
  /**
   * The verb run when the group is given arguments that name none of its verbs (`reldist
   * validate 036000241457` runs `validate any`), and which first words it takes as its own
   * arguments: any other word is still an unknown verb (a typo), with a suggestion.
   */
  defaultCommand?: { name: string; takes(word: string): boolean };
}

/** What a verb does, over an injected Context (never `process`). */
export type RunFn<Opts = Record<string, unknown>> = (ctx: Context, opts: Opts, args: string[]) => Promise<void>;

/** A verb's run file, as the runner table loads it. */
export interface VerbModule {
  run: RunFn<any>;
}

/** Loads the run file of a command, by its path without the root (`release create`, `me`). */
export type Runner = (path: string) => Promise<VerbModule>;

export function isGroup(spec: CommandSpec<any> | GroupSpec): spec is GroupSpec {
  return 'commands' in spec;
}

export function defineCommand<Opts = Record<string, unknown>>(spec: CommandSpec<Opts>): CommandSpec<Opts> {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}

/** Collects a repeatable flag (`--artist A --artist B`): commander's argument parser for it. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function examplesHelp(examples: string[]): string {
  return examples.length === 0 ? '' : `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`;
}

/** How a release is named on the command line (shared/release-ref.ts), for every spec's --help. */
export const RELEASE_REF_HELP = '<release> is its id or its catalog number; id:42 or cat:42 settles a catalog number that looks like an id.';
