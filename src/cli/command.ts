import type { Command } from 'commander';
import type { Context } from './context.js';

/**
 * One flag as declared: commander's flags string (`-f, --file <file>`), its help line, and how its
 * value is read (a parser such as `collect`, a default, or required). Built with `option()` or
 * `requiredOption()`, which keep the flags string's literal type: the key (`file`) and the value's
 * type (`string`) are derived from it, so a verb's options type is its declaration (OptsOf).
 */
export interface DeclaredOption<Flags extends string = string, Value = unknown, Always extends boolean = boolean> {
  readonly flags: Flags;
  readonly description: string;
  /** A method, so that a declaration with any value type is a DeclaredOption (parameters compare both ways). */
  parse?(value: string, previous: Value | undefined): Value;
  readonly defaultValue?: string | undefined;
  readonly required?: boolean | undefined;
  /** An old or other name kept working but left out of --help and completion (see hiddenAlias). */
  readonly hidden?: boolean | undefined;
  /** The fixed set of values the flag takes (from the contract's plain lists), offered by shell completion. */
  readonly values?: readonly string[] | undefined;
  /** A list only the service knows (complete-values.ts): completion asks `reldist __complete <list>` for it. */
  readonly serviceValues?: ServiceValues | undefined;
  /** Never set: the value's type, and whether the key is always there (a default, required, --no-x). */
  readonly __value?: Value;
  readonly __always?: Always;
}

/** A flag's long name as commander keys it: `-f, --file <file>` → `file`, `--no-input` → `input`, `--per-page <n>` → `perPage`. */
type LongName<F extends string> = F extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
export type OptionKey<F extends string> = LongName<F> extends `no-${infer Name}` ? Camel<Name> : Camel<LongName<F>>;
type Negated<F extends string> = LongName<F> extends `no-${string}` ? true : false;
/** What commander gives for a flag without a parser: `<v>` a string, `<v...>` strings, `[v]` a string or true, none a boolean. */
type PlainValue<F extends string> = F extends `${string}<${string}...>${string}`
  ? string[]
  : F extends `${string}<${string}>${string}`
    ? string
    : F extends `${string}[${string}]${string}`
      ? string | true
      : boolean;

type Simplify<T> = { [K in keyof T]: T[K] };
type KeyOfDeclared<D> = D extends DeclaredOption<infer F, unknown, boolean> ? OptionKey<F> : never;
type ValueOfDeclared<D> = D extends { readonly __value?: infer V } ? V : never;
type IsAlways<D> = D extends { readonly __always?: infer A } ? A : false;

/** The options object commander hands a verb with these flags declared. */
export type OptionsOf<O extends readonly DeclaredOption[]> = Simplify<
  { [D in O[number] as IsAlways<D> extends true ? KeyOfDeclared<D> : never]: ValueOfDeclared<D> } & {
    [D in O[number] as IsAlways<D> extends true ? never : KeyOfDeclared<D>]?: ValueOfDeclared<D>;
  }
>;

/** A flag: commander's `.option(flags, description, parse or defaultValue?)`, as a declaration. */
export function option<const F extends string>(flags: F, description: string): DeclaredOption<F, PlainValue<F>, Negated<F>>;
export function option<const F extends string, V>(
  flags: F,
  description: string,
  parse: (value: string, previous: V | undefined) => V,
): DeclaredOption<F, V, false>;
export function option<const F extends string>(flags: F, description: string, defaultValue: string): DeclaredOption<F, string, true>;
export function option(flags: string, description: string, parseOrDefault?: ((value: string, previous: never) => unknown) | string): DeclaredOption {
  return typeof parseOrDefault === 'function' ? { flags, description, parse: parseOrDefault } : { flags, description, defaultValue: parseOrDefault };
}

/** A flag commander refuses to run without: `.requiredOption(flags, description)`. */
export function requiredOption<const F extends string>(flags: F, description: string): DeclaredOption<F, PlainValue<F>, true> {
  return { flags, description, required: true };
}

/** A flag taking one of a fixed set (declared once, in the contract): completion offers them, not file names. */
export function choice<const F extends string>(flags: F, description: string, values: readonly string[]): DeclaredOption<F, PlainValue<F>, Negated<F>> {
  return { flags, description, values };
}

/** The values declared for commander's option object (shell completion reads them from the built tree). */
const declaredValues = new WeakMap<object, readonly string[]>();
export const valuesOf = (commanderOption: object): readonly string[] | undefined => declaredValues.get(commanderOption);

/** The lists of values only the service knows, by the name `reldist __complete` takes (complete-values.ts). */
export type ServiceValues = 'genre';

/** A flag taking a value from a list of the service's (`lookup genres`): completion asks for it at a Tab press. */
export function fromService<const F extends string>(flags: F, description: string, list: ServiceValues): DeclaredOption<F, PlainValue<F>, Negated<F>> {
  return { flags, description, serviceValues: list };
}

const declaredServiceValues = new WeakMap<object, ServiceValues>();
export const serviceValuesOf = (commanderOption: object): ServiceValues | undefined => declaredServiceValues.get(commanderOption);

/**
 * Another name for a flag, kept working but hidden (one name for a thing everywhere, as gh does):
 * the verb reads `opts.<canonical> ?? opts.<alias>`.
 */
export function hiddenAlias<const F extends string>(flags: F, canonical: string): DeclaredOption<F, PlainValue<F>, Negated<F>> {
  return { flags, description: `the same as ${canonical}`, hidden: true };
}

/** Adds declared flags to a commander command, in order (their order in --help). */
export function addOptions(cmd: Command, options: readonly DeclaredOption[]): void {
  for (const o of options) {
    if (o.hidden) cmd.addOption(cmd.createOption(o.flags, o.description).hideHelp());
    else if (o.required) cmd.requiredOption(o.flags, o.description);
    else if (o.parse) cmd.option(o.flags, o.description, o.parse);
    else if (o.defaultValue !== undefined) cmd.option(o.flags, o.description, o.defaultValue);
    else cmd.option(o.flags, o.description);
    const added = cmd.options.at(-1);
    if (o.values && added) declaredValues.set(added, o.values);
    if (o.serviceValues && added) declaredServiceValues.set(added, o.serviceValues);
  }
}

/** The root's flags, valid before or after any command (build-program.ts declares them). */
export const GLOBAL_OPTIONS = [
  option('--json', 'print data as one JSON value on stdout'),
  option('--debug', 'trace requests and show stack traces on stderr (tokens redacted)'),
  option('-q, --quiet', 'print nothing on stderr but errors'),
  option('--no-input', 'never prompt; a missing input is an error that names the flag to pass'),
  option('-y, --yes', 'answer yes to confirmations'),
  option('--no-color', 'no colour, whatever the terminal'),
  option('--profile <name>', 'use this saved profile (env: RELDIST_PROFILE)'),
  option('--base-url <url>', 'the service to talk to (env: RELDIST_BASE_URL)'),
  option('--sandbox', 'use the local sandbox, even under CI (env: RELDIST_SANDBOX=1); `serve --sandbox` runs one'),
  option('--timeout <duration>', 'stop the command after this long, e.g. 30s, 2m (exit 7); 0: never; under CI 30m by default'),
] as const;

/**
 * One command as `--help` and shell completion see it: name, arguments, help text and flags.
 * Declarations only: a group's `spec.ts` holds its verbs' specs and stays cheap to load; what a
 * verb does lives in its own file (`<verb>.ts`, exporting `run`), loaded through runners.ts.
 * Its `options` are the verb's options type too (OptsOf), which runners.ts holds each run to.
 */
export interface CommandSpec<O extends readonly DeclaredOption[] = readonly DeclaredOption[], Inherits extends boolean = boolean> {
  name: string;
  /** Positional arguments in commander syntax, e.g. `<id>` or `[codes...]`. */
  args?: string;
  summary: string;
  /** Shown under the summary in --help. */
  description?: string;
  examples: string[];
  aliases?: string[];
  /** The verb's flags, in --help order. */
  options?: O;
  /** Groups under a command that also runs by itself (`reldist serve token create`). */
  subgroups?: GroupSpec[];
  /**
   * Also sees the flags of the commands above it: under a command with subgroups, a flag both
   * declare (`serve --data-dir`, `serve token create --data-dir`) is parsed by the upper one.
   * Its options type then has the root's flags too.
   */
  inheritsOptions?: Inherits;
  /**
   * Running it again after it stopped half-way (--timeout, a lost connection) converges on the
   * same result, never a duplicate: the --timeout line then says "safe to run again".
   */
  safeToRerun?: boolean;
  /** Runs until stopped (`serve`): not bounded by the default --timeout under CI. */
  runsUntilStopped?: boolean;
}

/** Marks an options type as derived from a declaration (OptsOf), and from which: types only, never a value. */
declare const declaredBy: unique symbol;

/**
 * The options a verb's run gets: its declared flags (with the root's when it inherits them).
 * runners.ts refuses a run whose options are not exactly this type of a declaration.
 */
export type OptsOf<S> =
  S extends CommandSpec<infer O, infer Inherits>
    ? (Inherits extends true ? Simplify<OptionsOf<O> & Partial<OptionsOf<typeof GLOBAL_OPTIONS>>> : OptionsOf<O>) & { readonly [declaredBy]?: S }
    : never;

/** Same type both ways (identity, not only assignability). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** A run's options: OptsOf<a declaration> exactly, or no options parameter at all. */
export type TakesDeclaredOptions<Run> = Run extends (ctx: Context, opts: infer O, ...rest: string[][]) => Promise<void>
  ? unknown extends O
    ? true
    : O extends { readonly [declaredBy]?: infer S }
      ? S extends CommandSpec<any, any>
        ? Same<O, OptsOf<S>>
        : false
      : false
  : false;

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

export function defineCommand<const O extends readonly DeclaredOption[] = readonly [], const Inherits extends boolean = false>(
  spec: CommandSpec<O, Inherits>,
): CommandSpec<O, Inherits> {
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
