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

/** Exit status of several outcomes: anything else is worse than "blocked", which is worse than ok. */
export function worstExit(codes: readonly number[]): number {
  const rank = (c: number) => (c === ExitCode.ok ? 0 : c === ExitCode.validation ? 1 : 2);
  let worst: number = ExitCode.ok;
  for (const c of codes) if (rank(c) > rank(worst)) worst = c;
  return worst;
}

export interface CliErrorOptions {
  exitCode?: ExitCode;
  hint?: string;
  /** Machine-readable code for `--json` error objects. */
  code?: string;
  /** Lines shown above the error, one problem each (a file's every bad field). */
  details?: string[];
  cause?: unknown;
}

/** An error meant for a person: one line, with an optional hint on what to do next. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly code: string;
  readonly details: string[];

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.failure;
    this.hint = options.hint;
    this.code = options.code ?? 'failed';
    this.details = options.details ?? [];
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
  2    usage error (a bad flag, argument or input file)
  3    validation failed (an invalid code, a release with blocking problems),
       or a watched release was rejected (\`release watch\`)
  4    not authenticated (no token, or the token was refused), or no service:
       nothing configured under CI, or RELDIST_BASE_URL, RELDIST_TOKEN or
       RELDIST_PROFILE set but empty
  5    not found
  6    rate limited, or retries exhausted
  7    timed out (--timeout passed first)
  8    changes pending (\`release apply --plan\` found something to change)
  9    state conflict (the release's state does not allow it: submit of an
       approved release, edit of one in review, delete of a live one)
  130  interrupted (Ctrl-C, or a prompt was cancelled)
`;
