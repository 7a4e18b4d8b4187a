// Type-only imports: this file stays free of code, whatever the services load.
import type { ApiClient, Workload } from '../client/index.js';
import type { Env, IO } from './io.js';
import type { Session } from './config/resolve.js';
import type { Prompter } from './lazy.js';
import type { CliError } from './errors.js';
import type { Exchanges } from './exchanges.js';
import type { CleanUpTask } from './clean-up-guard.js';
import type { SandboxLauncher } from './sandbox-background.js';

/** Flags every command understands (commander's global options). */
export interface GlobalOptions {
  json: boolean;
  debug: boolean;
  quiet: boolean;
  /** false when --no-input is given: never prompt. */
  input: boolean;
  yes: boolean;
  /** undefined unless --no-color / --color was given. */
  color: boolean | undefined;
  profile: string | undefined;
  baseUrl: string | undefined;
  /** --sandbox: use the embedded sandbox, asked for by name (even under CI). */
  sandbox?: boolean | undefined;
  /**
   * --timeout in ms: the whole command is bounded by it; undefined when not given, 0 for never.
   * Under CI without --timeout, the CI default (and `timeoutFromCi` names the variable that said CI).
   */
  timeoutMs?: number | undefined;
  timeoutFromCi?: string | undefined;
}

/**
 * What a command's run function receives instead of touching `process`. Heavy parts (the HTTP
 * client, the config store, prompts) are created lazily, so a command that needs none of them
 * loads none of them.
 */
export interface Context {
  io: IO;
  env: Env;
  globals: GlobalOptions;
  /** Colour on stdout (stderr decides for itself). */
  color: boolean;
  /** Prompts are allowed: stdin and stdout are terminals and --no-input was not given. */
  canPrompt: boolean;
  now(): Date;
  /** Aborted on SIGINT/SIGTERM so that long work can stop cleanly. */
  signal: AbortSignal;
  services: Services;
  /** Registers clean-up (close the client, stop the sandbox) run when the command ends, last first. */
  defer(fn: () => unknown): void;
  /** What the command has asked the service so far (for the line --timeout prints). */
  exchanges: Exchanges;
  /** Replaces the generic --timeout line with the command's own (`release watch` names what it waited for). */
  explainTimeout(explain: () => CliError): void;
  /**
   * Runs clean-up after Ctrl-C (deleting a draft this run made): a second Ctrl-C lets it finish
   * and says so, a third stops it and prints `task.leftover`.
   */
  cleanUp<T>(task: CleanUpTask, work: () => Promise<T>): Promise<T>;
  /** Waits for a person's answer (prompts.ts): the --timeout clock stops meanwhile. */
  whileAsking<T>(ask: () => Promise<T>): Promise<T>;
  /** How to start reldist as the background sandbox; unset (tests), the sandbox runs in-process. */
  sandboxLauncher?: SandboxLauncher | undefined;
}

/**
 * The heavy, optional dependencies of a command, each loaded and built on first use (services.ts),
 * so a command that needs none of them loads none of them. Tests replace any of them.
 */
export interface Services {
  /** Where requests go and with which token; starts the embedded sandbox when nothing is configured. */
  session(): Promise<Session>;
  /** The HTTP client of this command ('long', undici, for `release apply` and `api --paginate`), closed when it ends. */
  client(options?: { workload?: Workload }): Promise<ApiClient>;
  /** A client of its own for clean-up after Ctrl-C (the command's client stops with its signal). */
  cleanupClient(): Promise<ApiClient>;
  /** The prompt library (@inquirer/prompts); prompts.ts decides whether prompting is allowed. */
  prompts(): Promise<Prompter>;
}
