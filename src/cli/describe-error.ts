import { describeClientError } from './describe-client-error.js';
import { CliError, ExitCode, type FileProblem } from './errors.js';

export interface DescribedError {
  message: string;
  hint: string | undefined;
  code: string;
  exitCode: number;
  /** Lines to show above the error (every problem of a file, say); empty for most errors. */
  details: string[];
  /** Bad input files, each shown above the error (a JSON line each with --json). */
  files: FileProblem[];
}

/**
 * Turns anything thrown into one line for a person: the CLI's own errors, the HTTP client's
 * (through describe-client-error.ts), an interrupted prompt; anything else is a bug (--debug).
 */
export function describeError(err: unknown, _opts: { debug: boolean }): DescribedError {
  const converted = err instanceof CliError ? err : describeClientError(err);
  if (converted) {
    return {
      message: oneLine(converted.message),
      hint: converted.hint,
      code: converted.code ?? 'failed',
      exitCode: converted.exitCode,
      details: (converted.details ?? []).map(oneLine),
      files: err instanceof CliError ? err.files.map((f) => ({ ...f, message: oneLine(f.message) })) : [],
    };
  }
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
    return { message: 'interrupted', hint: undefined, code: 'interrupted', exitCode: ExitCode.interrupted, details: [], files: [] };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: oneLine(message), hint: 'run again with --debug for details', code: 'internal', exitCode: ExitCode.failure, details: [], files: [] };
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
