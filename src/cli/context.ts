import type { Env, IO } from './io.js';

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
}

/**
 * Lazily built dependencies. Each returns a promise because it loads its module on first use;
 * tests replace any of them.
 */
export interface Services {
  // Filled in by the modules that own them; typed loosely here so this file stays import-free.
  [name: string]: unknown;
}
