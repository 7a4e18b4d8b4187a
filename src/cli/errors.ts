// Exit codes are part of the interface: scripts branch on them. See `reldist help exit-codes`.
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  validation: 3,
  auth: 4,
  notFound: 5,
  rateLimited: 6,
  /** --timeout passed before the command was done (`release watch`: before the awaited state came). */
  timedOut: 7,
  /** `release apply --plan`: the plan has changes to make. */
  changesPending: 8,
  /** The release is not in a state that allows this (submit of an approved release, edit of one in review). */
  conflict: 9,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Exit status of several outcomes, the worst: a failure of the service, the network or the
 * command (1, 4, 6, 7…) over "not found" (5) over a state conflict (9) over "blocked" (3) over ok.
 * The first of equals wins. `reldist help exit-codes` says the same.
 */
export function worstExit(codes: readonly number[]): number {
  const rank = (c: number) => (c === ExitCode.ok ? 0 : c === ExitCode.validation ? 1 : c === ExitCode.conflict ? 2 : c === ExitCode.notFound ? 3 : 4);
  let worst: number = ExitCode.ok;
  for (const c of codes) if (rank(c) > rank(worst)) worst = c;
  return worst;
}

/** One bad input file: which, why in words, and a machine-readable code (`--json` prints one line each). */
export interface FileProblem {
  file: string;
  code: string;
  message: string;
  /** The release file that names it (`release apply`). */
  named_in?: string;
}

export interface CliErrorOptions {
  exitCode?: ExitCode;
  hint?: string;
  /** Machine-readable code for `--json` error objects. */
  code?: string;
  /** Lines shown above the error, one problem each (a file's every bad field). */
  details?: string[];
  /** The bad input files, one line each above the error (one JSON line each with --json). */
  files?: FileProblem[];
  cause?: unknown;
}

/** An error meant for a person: one line, with an optional hint on what to do next. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly code: string;
  readonly details: string[];
  readonly files: FileProblem[];

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.failure;
    this.hint = options.hint;
    this.code = options.code ?? 'failed';
    this.details = options.details ?? [];
    this.files = options.files ?? [];
  }
}

export class UsageError extends CliError {
  constructor(message: string, hint?: string, details?: string[]) {
    super(message, { exitCode: ExitCode.usage, code: 'usage', ...(hint ? { hint } : {}), ...(details ? { details } : {}) });
    this.name = 'UsageError';
  }
}

/** The work was done and the answer is "no": an invalid code, a release with blocking problems. */
export class ValidationFailed extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.validation, code: 'validation_failed', ...(hint ? { hint } : {}) });
    this.name = 'ValidationFailed';
  }
}

/** Input files the command cannot use (not audio, refused by the service's audio rules, missing): exit 2, nothing sent. */
export class BadInputFiles extends CliError {
  constructor(message: string, files: FileProblem[], hint?: string) {
    super(message, { exitCode: ExitCode.usage, code: 'bad_input_files', files, ...(hint ? { hint } : {}) });
    this.name = 'BadInputFiles';
  }
}

/**
 * Not an error: the exit code is the command's answer, already given on stdout (`release apply
 * --plan`'s 8, changes pending, as terraform's -detailed-exitcode). No `error:` line is printed.
 */
export class AnswerExit extends CliError {
  constructor(exitCode: ExitCode, message: string) {
    super(message, { exitCode, code: 'answer' });
    this.name = 'AnswerExit';
  }
}

/** Raised when the user answers no or presses Ctrl-C at a prompt. */
export class Interrupted extends CliError {
  constructor(message = 'interrupted') {
    super(message, { exitCode: ExitCode.interrupted, code: 'interrupted' });
    this.name = 'Interrupted';
  }
}

export const exitCodeHelp = `Exit codes:
  0    success (an empty list is success)
  1    failure (the service or the network failed, or the command could not finish)
  2    usage error (a bad flag, argument or input file: missing, not audio,
       or audio the service would refuse)
  3    validation failed (an invalid code, a release with blocking problems),
       or a watched release was rejected (\`release watch\`)
  4    not authenticated (no token, or the token was refused), or no service:
       nothing configured under CI, or RELDIST_BASE_URL, RELDIST_TOKEN or
       RELDIST_PROFILE set but empty
  5    not found
  6    rate limited, or retries exhausted
  7    timed out (--timeout passed first, or the service never answered in time)
  8    changes pending (\`release apply --plan\` found something to change)
  9    state conflict (the release's state does not allow it: submit of an
       approved release, submit --dry-run or edit of one in review, delete
       of a live one)
  130  interrupted (Ctrl-C, at a prompt too; answering no to a confirmation is 0)

A command of several items (\`release submit 1 2 3\`, \`track upload\` of several files,
the sandbox controls) exits with its worst item's code: any other failure over
5 (not found) over 9 (state conflict) over 3 (blocked) over 0.
`;
