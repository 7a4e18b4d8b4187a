import { CliError, ExitCode } from './errors.js';

export interface DescribedError {
  message: string;
  hint: string | undefined;
  code: string;
  exitCode: number;
  /** Lines to show above the error (every problem of a file, say); empty for most errors. */
  details: string[];
}

/**
 * Turns anything thrown into one line for a person. Errors from other layers (the HTTP client)
 * describe themselves through `toCliError()`, so this file needs none of their modules.
 */
export function describeError(err: unknown, _opts: { debug: boolean }): DescribedError {
  const converted = hasToCliError(err) ? err.toCliError() : err;
  if (converted instanceof CliError || isCliErrorLike(converted)) {
    return {
      message: oneLine(converted.message),
      hint: converted.hint,
      code: converted.code ?? 'failed',
      exitCode: converted.exitCode,
      details: (converted.details ?? []).map(oneLine),
    };
  }
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
    return { message: 'interrupted', hint: undefined, code: 'interrupted', exitCode: ExitCode.interrupted, details: [] };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: oneLine(message), hint: 'run again with --debug for details', code: 'internal', exitCode: ExitCode.failure, details: [] };
}

/** The plain shape other layers return from toCliError(), so they need not import this module. */
function isCliErrorLike(v: unknown): v is { message: string; exitCode: number; hint: string | undefined; code: string; details?: string[] } {
  return typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string' && typeof (v as { exitCode?: unknown }).exitCode === 'number';
}

function hasToCliError(err: unknown): err is { toCliError(): CliError } {
  return typeof err === 'object' && err !== null && typeof (err as { toCliError?: unknown }).toCliError === 'function';
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
