// The command tree as commander sees it, built from the declarations (command.ts) and the table of
// groups (commands/index.ts). run-cli.ts declares only the invoked group; program.ts the whole tree.
import { Command, type CommanderError } from 'commander';
import { commandAliasFor, FLAG_SYNONYMS } from './aliases.js';
import { GLOBAL_OPTIONS, addOptions, examplesHelp, isGroup, type CommandSpec, type GroupSpec, type OptionsOf, type Runner } from './command.js';
import type { Context, GlobalOptions, Services } from './context.js';
import { UsageError, type CliError } from './errors.js';
import { Exchanges } from './exchanges.js';
import type { CleanUpGuard } from './clean-up-guard.js';
import { startDeadline, timedOutError } from './deadline.js';
import { parseDuration } from './shared/duration.js';
import { colorEnabled, type Env, type IO } from './io.js';
import type { SandboxLauncher } from './sandbox-background.js';
import { commandGroups, topLevelCommands } from './commands/index.js';
import { DEFAULT_CI_TIMEOUT_MS, ciVariable } from './config/ci.js';
import { createServices } from './services.js';

import { closest, reflow } from './help-text.js';
import { VERSION } from './version.js';

export interface ProgramDeps {
  io: IO;
  env: Env;
  /** Declare only this group's sub-commands (start-up: the others are never loaded). Default: all. */
  only?: string | undefined;
  now?: () => Date;
  signal?: AbortSignal;
  /** Guards clean-up after Ctrl-C against the next Ctrl-C (the real process's signal handling). */
  cleanUps?: CleanUpGuard;
  /** Overrides for lazily built services (tests). */
  services?: Partial<Services>;
  /**
   * Loads a command's run file (commands/runners.ts). Injected, so that the tree can be declared
   * (help, completion) without the table of every command's code.
   */
  runner?: Runner;
  /** Set by the real process only (run-cli.ts): see Context.sandboxLauncher. */
  sandboxLauncher?: SandboxLauncher | undefined;
  /** The bound of a command under CI without --timeout (default DEFAULT_CI_TIMEOUT_MS; tests shorten it). */
  ciTimeoutMs?: number;
}

function globalsOf(cmd: Command): GlobalOptions {
  // The root's flags as declared (GLOBAL_OPTIONS); a flag not given is absent.
  const o: Partial<OptionsOf<typeof GLOBAL_OPTIONS>> = cmd.optsWithGlobals();
  return {
    json: Boolean(o.json),
    debug: Boolean(o.debug),
    quiet: Boolean(o.quiet),
    input: o.input !== false,
    yes: Boolean(o.yes),
    color: typeof o.color === 'boolean' && o.color === false ? false : undefined,
    profile: typeof o.profile === 'string' ? o.profile : undefined,
    baseUrl: typeof o.baseUrl === 'string' ? o.baseUrl : undefined,
    sandbox: o.sandbox === true,
    timeoutMs: typeof o.timeout === 'string' ? parseDuration(o.timeout, '--timeout') : undefined,
  };
}

/**
 * --timeout when given; under CI, a command that finishes by itself is bounded all the same
 * (DEFAULT_CI_TIMEOUT_MS), so that a hanging service fails the job in minutes rather than at the
 * CI system's own limit. `serve` runs until stopped and is never bounded by default.
 */
export function withCiBound(
  globals: GlobalOptions,
  spec: Pick<CommandSpec<any>, 'runsUntilStopped'>,
  deps: Pick<ProgramDeps, 'env' | 'ciTimeoutMs'>,
): GlobalOptions {
  if (globals.timeoutMs !== undefined || spec.runsUntilStopped) return globals;
  const ci = ciVariable(deps.env);
  if (!ci) return globals;
  return { ...globals, timeoutMs: deps.ciTimeoutMs ?? DEFAULT_CI_TIMEOUT_MS, timeoutFromCi: ci };
}

const deferred = new WeakMap<Context, (() => unknown)[]>();
const timeoutExplainers = new WeakMap<Context, () => CliError>();

/** `holdClock` stops the --timeout clock until the function it returns is called (deadline.ts). */
export function makeContext(deps: ProgramDeps, globals: GlobalOptions, holdClock: () => () => void = () => () => {}): Context {
  const list: (() => unknown)[] = [];
  const ctx: Context = {
    io: deps.io,
    env: deps.env,
    globals,
    color: colorEnabled(deps.env, deps.io.stdoutIsTTY, globals.color),
    // Under any CI system (not only CI=true: CI=1, GITLAB_CI…) a job never waits for a person.
    canPrompt: globals.input && deps.io.stdinIsTTY && deps.io.stdoutIsTTY && ciVariable(deps.env) === undefined,
    now: deps.now ?? (() => new Date()),
    signal: deps.signal ?? new AbortController().signal,
    // Filled in just below: the services close over the context.
    services: undefined as unknown as Services,
    defer: (fn) => void list.push(fn),
    exchanges: new Exchanges(),
    explainTimeout: (explain) => void timeoutExplainers.set(ctx, explain),
    cleanUp: (task, work) => (deps.cleanUps ? deps.cleanUps.run(task, work) : work()),
    whileAsking: async (ask) => {
      const release = holdClock();
      try {
        return await ask();
      } finally {
        release();
      }
    },
    sandboxLauncher: deps.sandboxLauncher,
  };
  ctx.services = createServices(ctx, deps.services);
  deferred.set(ctx, list);
  return ctx;
}

/** Runs a context's clean-ups, last registered first; a failing clean-up does not hide the others. */
export async function runDeferred(ctx: Context): Promise<void> {
  const list = deferred.get(ctx) ?? [];
  deferred.delete(ctx);
  for (const fn of list.reverse()) {
    try {
      await fn();
    } catch (err) {
      if (ctx.globals.debug) ctx.io.stderr.write(`clean-up failed: ${(err as Error).message}\n`);
    }
  }
}

function attach(parent: Command, spec: CommandSpec<any>, deps: ProgramDeps, isDefault = false): Command {
  const cmd = parent.command(spec.args ? `${spec.name} ${spec.args}` : spec.name, { isDefault });
  cmd.summary(spec.summary).description(spec.description ? `${spec.summary}\n\n${reflow(spec.description)}` : spec.summary);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  addOptions(cmd, spec.options ?? []);
  cmd.addHelpText('after', examplesHelp(spec.examples));
  for (const group of spec.subgroups ?? []) attachGroup(cmd, group, deps);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    if (!deps.runner) throw new Error(`reldist: no runner to run ${commandPath(self)}`);
    const globals = withCiBound(globalsOf(self), spec, deps);
    const verb = await deps.runner(commandPath(self));
    // --timeout bounds the whole command, whatever it is doing: the race ends it even if its work
    // does not listen to the signal. What was in flight is noted the moment time is up; then the
    // command gets a short while to clean up after itself (delete the draft it made), no more.
    // The clock stops while a prompt waits for a person (ctx.whileAsking).
    let ctx: Context | undefined;
    const deadline = startDeadline(globals.timeoutMs, () => ctx?.exchanges.inFlight() ?? []);
    const signal = !globals.timeoutMs ? deps.signal : deps.signal ? AbortSignal.any([deps.signal, deadline.signal]) : deadline.signal;
    ctx = makeContext({ ...deps, signal }, globals, deadline.hold);
    let timedOut = false;
    try {
      const running = verb.run(ctx, spec.inheritsOptions ? self.optsWithGlobals() : self.opts(), self.args);
      const inFlight = await Promise.race([running.then(() => undefined), deadline.expired]);
      if (inFlight !== undefined) {
        timedOut = true;
        await Promise.race([running.catch(() => {}), delay(CLEAN_UP_AFTER_TIMEOUT_MS)]);
        throw timeoutExplainers.get(ctx)?.() ?? timedOutError(globals.timeoutMs!, inFlight, ctx.exchanges, spec.safeToRerun === true, globals.timeoutFromCi);
      }
    } finally {
      deadline.stop();
      const cleanUp = runDeferred(ctx);
      await (timedOut ? Promise.race([cleanUp, delay(CLEAN_UP_AFTER_TIMEOUT_MS)]) : cleanUp);
    }
  });
  return cmd;
}

/** After --timeout, the command's own clean-up, then closing clients and the sandbox, may each take this long, no more. */
const CLEAN_UP_AFTER_TIMEOUT_MS = 3000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A command's path without the root, as the runner table spells it: `release create`, `me`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function attachGroup(parent: Command, group: GroupSpec, deps: ProgramDeps): void {
  const cmd = parent.command(group.name).summary(group.summary).description(group.summary);
  if (group.examples) cmd.addHelpText('after', examplesHelp(group.examples));
  const byDefault = group.defaultCommand;
  for (const spec of group.commands) {
    if (isGroup(spec)) attachGroup(cmd, spec, deps);
    else attach(cmd, spec, deps, spec.name === byDefault?.name);
  }
  if (byDefault) {
    // commander hands the default verb any first word; one it would not take is a mistyped verb.
    cmd.hook('preSubcommand', (self, sub) => {
      const first = self.args[0];
      // Nothing at all: the group's help, as for any other group.
      if (first === undefined) return self.help();
      if (sub.name() === byDefault.name && first !== byDefault.name && !first.startsWith('-') && !byDefault.takes(first)) {
        // Worded as commander words its own, so that toUsageError reads the suggestion the same way.
        const near = closest(
          first,
          self.commands.map((c) => c.name()),
        );
        self.error(`unknown command '${first}'${near ? `\n(Did you mean ${near}?)` : ''}`, { code: 'commander.unknownCommand' });
      }
    });
  }
}

/**
 * The program with every top-level command and group. Groups in `loaded` are declared with their
 * sub-commands; the others only by name and summary (enough for the root help and for commander's
 * "did you mean"). Only declarations are loaded here; see command.ts.
 */
export function createProgram(deps: ProgramDeps, loaded: readonly GroupSpec[]): Command {
  const program = new Command('reldist');
  program
    .description('Get music releases out to the world: releases, tracks, codes and artists, from a terminal or CI.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command');
  addOptions(program, GLOBAL_OPTIONS);
  program
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => deps.io.stdout.write(s),
      writeErr: (s) => deps.io.stderr.write(s),
      // Errors are printed once, by main.ts, as one line.
      outputError: () => {},
    });

  for (const spec of topLevelCommands) attach(program, spec, deps);
  for (const entry of commandGroups) {
    const group = loaded.find((g) => g.name === entry.name);
    if (group) attachGroup(program, group, deps);
    else program.command(entry.name).summary(entry.summary).description(entry.summary);
  }

  program.addHelpText('after', `\nRun \`reldist <command> --help\` for a command's flags and examples, \`reldist help exit-codes\` for exit codes.\n`);
  return program;
}

/**
 * commander's error as one line and a hint. With the program and argv, an unknown word or flag
 * is also looked up among the other names people use (aliases.ts): `reldist login` → `auth
 * login`, `release submit --comment` → `--message`.
 */
export function toUsageError(err: CommanderError, invoked?: { program: Command; args: readonly string[] }): UsageError {
  // commander prefixes messages with "error: "; keep one clean line.
  const message = err.message.replace(/^error:\s*/i, '').split('\n')[0] ?? err.message;
  // An alias named exactly, then commander's nearest real name, then the alias nearest a typo.
  const suggestion =
    (invoked && aliasSuggestion(err, message, invoked, false)) ??
    /\(Did you mean (.+?)\?\)/.exec(err.message)?.[1] ??
    (invoked && aliasSuggestion(err, message, invoked, true));
  return new UsageError(message, suggestion ? `did you mean ${suggestion}?` : 'run with --help to see the flags and examples');
}

/** The command path argv invokes (`release submit`), as far as its words name commands. */
function invokedPath(program: Command, args: readonly string[]): string[] {
  const path: string[] = [];
  let at = program;
  for (const word of args) {
    if (word.startsWith('-')) continue;
    const next = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    path.push(next.name());
    at = next;
  }
  return path;
}

function aliasSuggestion(
  err: CommanderError,
  message: string,
  { program, args }: { program: Command; args: readonly string[] },
  nearTypo: boolean,
): string | undefined {
  const path = invokedPath(program, args);
  const word = /'([^']+)'/.exec(message)?.[1];
  if (word === undefined) return undefined;
  // Only a first word: `release login` is a typo of a release verb, not the auth command.
  if (err.code === 'commander.unknownCommand' && path.length === 0) {
    const meant = commandAliasFor(word, nearTypo ? closest : () => undefined);
    return meant === undefined ? undefined : `\`reldist ${meant}\``;
  }
  if (err.code === 'commander.unknownOption') {
    const synonyms = FLAG_SYNONYMS[path.join(' ')] ?? {};
    const flag = word.split('=')[0]!;
    const key = nearTypo ? closest(flag, Object.keys(synonyms)) : flag;
    return key === undefined ? undefined : synonyms[key];
  }
  return undefined;
}

/** Global options that take a value, so `--profile x release list` is read as the release group. */
const VALUED_GLOBALS = new Set(['--profile', '--base-url', '--timeout']);

/** The program with every group declared (shell completion needs the whole tree). */
export async function createFullProgram(deps: ProgramDeps): Promise<Command> {
  return createProgram(deps, await Promise.all(commandGroups.map((g) => g.load())));
}

/** The declarations of the group that argv invokes, if it names one (`help <group>` counts). */
export async function loadInvokedGroup(args: readonly string[], only?: string): Promise<GroupSpec[]> {
  const name = only ?? invokedName(args);
  const entry = commandGroups.find((g) => g.name === name);
  return entry ? [await entry.load()] : [];
}

/** The first command word of argv (`help <group>` counts as <group>), or undefined. */
export function invokedName(args: readonly string[]): string | undefined {
  const at = commandWordAt(args);
  if (at < 0) return undefined;
  const a = args[at]!;
  return a === 'help' ? args.slice(at + 1).find((x) => !x.startsWith('-')) : a;
}

/** Where the first command word is (global options and their values skipped), or -1: none before `--`. */
export function commandWordAt(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return -1;
    if (VALUED_GLOBALS.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return i;
  }
  return -1;
}
