// Submitting releases (or checking them with --dry-run) and reporting every problem the service
// returns. Shared by `release submit` and `release create --submit`.
import { ApiError, type ApiClient } from '../../../client/index.js';
import type { EntityId, Problem, ReleaseStatus, ResponseOf } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { CliError, ExitCode, ValidationFailed, worstExit } from '../../errors.js';
import { printJson, plural } from '../../output/index.js';
import { countProblems, countText, noPaint, problemRows, renderProblemGroups, type Paint } from './problems.js';
import { withFixCommands } from './fix-commands.js';

/** For a person or a pipe, each hint names the command that fixes it (a release not created yet has none). */
const fixable = (o: Internal): Problem[] => (o.offline || typeof o.release_id !== 'number' ? o.problems : withFixCommands(o.problems, o.release_id));
import { lazy } from '../../lazy.js';
import { statusWords } from '../../shared/release-views.js';
import { conflictStatus } from '../../shared/release-status.js';
import { submitNotesMaxLength } from '../../../contract/routes.js';

/**
 * `already_in_review`: submitted before, so there was nothing to do (exit 0, like a submit).
 * `conflict`: the release's state allows no submit (approved, live…; a dry run of one that is not
 * a draft: nothing to check), exit 9.
 */
export type Outcome = 'submitted' | 'already_in_review' | 'checked' | 'blocked' | 'conflict' | 'failed';

/** One line of `release submit --json`: every field of one type, whatever the outcome. */
export interface SubmitOutcome {
  /** The service's id; null for `release create --check`, which has no release yet. */
  release_id: EntityId | null;
  outcome: Outcome;
  /** The release's status afterwards; null only when it could not be known (not found, no answer, no release yet). */
  status: ReleaseStatus | null;
  /** Sent to the embedded sandbox rather than a configured service. */
  sandbox: boolean;
  message: string;
  problems: Problem[];
  /** Set when outcome is conflict or failed. */
  error: { code: string; message: string } | null;
}

/** An outcome as the command keeps it: the release as the user named it, the exit code, the error. */
export interface Internal extends Omit<SubmitOutcome, 'release_id' | 'sandbox'> {
  /** The release's id (or, offline, the file `release create --check` read). */
  release_id: EntityId | string;
  /** No release on the service: `release create --check` of a plan. */
  offline?: true;
  exit: number;
  cause?: unknown;
}

export interface SubmitOptions {
  dryRun: boolean;
  notes?: string | undefined;
}

/** The body of a submit, single or batch, built from typed values. */
export function submitBody(options: SubmitOptions): { dry_run?: true; notes?: string } {
  return { ...(options.dryRun ? { dry_run: true } : {}), ...(options.notes ? { notes: options.notes } : {}) };
}

/**
 * The body is built here from typed values; --notes is the only thing typed by a person, and
 * within its bound the client need not load zod to check it (a third of the CPU of a 500-id
 * submit). Over it, the client's check says so in its usual words.
 */
export function submitBodyChecked(options: SubmitOptions): { bodyChecked?: true } {
  return options.notes === undefined || options.notes.length <= submitNotesMaxLength ? { bodyChecked: true } : {};
}

export async function submitOne(client: ApiClient, id: EntityId, options: SubmitOptions): Promise<Internal> {
  try {
    const res = await client.call('submitRelease', { params: { releaseId: id }, body: submitBody(options), ...submitBodyChecked(options) });
    return answeredOutcome(id, res);
  } catch (err) {
    return refusedOutcome(client, id, err, options);
  }
}

/** A release the service answered for (submitted, or checked by a dry run). */
export function answeredOutcome(id: EntityId, res: ResponseOf<'submitRelease'>): Internal {
  const status = res.release.status;
  // The service checks a dry run whatever the state; only a draft can be submitted, so the
  // checks of any other say nothing about what a submit would do.
  if (!res.submitted && status !== 'draft') return conflictOutcome(id, status, true);
  const problems = res.problems ?? [];
  const blocked = countProblems(problems).errors > 0;
  const outcome: Outcome = res.submitted ? 'submitted' : blocked ? 'blocked' : 'checked';
  return { release_id: id, outcome, status, message: res.message, problems, error: null, exit: outcome === 'blocked' ? ExitCode.validation : ExitCode.ok };
}

/** A release whose state allows no submit: in review (a dry run), approved, live… */
function conflictOutcome(id: EntityId, status: ReleaseStatus, dryRun: boolean, cause?: unknown): Internal {
  const message =
    status === 'in_review' && dryRun
      ? 'in review: nothing to check or submit'
      : `${statusWords(status)}: only a draft can be ${dryRun ? 'checked for a submit' : 'submitted'}`;
  return {
    release_id: id,
    outcome: 'conflict',
    status,
    message,
    problems: [],
    error: { code: 'state_conflict', message },
    exit: ExitCode.conflict,
    ...(cause !== undefined ? { cause } : {}),
  };
}

/** A release whose submit failed: blocked by its problems, already in review, or an error. */
export async function refusedOutcome(client: ApiClient, id: EntityId, err: unknown, options: SubmitOptions): Promise<Internal> {
  if (err instanceof ApiError && err.code === 'submit_blocked') {
    // The service checks the state first: a submit blocked by its problems was of a draft, still one.
    return { release_id: id, outcome: 'blocked', status: 'draft', message: err.message, problems: err.problems ?? [], error: null, exit: ExitCode.validation };
  }
  const status = await conflictStatus(client, id, err);
  if (!options.dryRun && status === 'in_review') {
    return { release_id: id, outcome: 'already_in_review', status, message: 'already in review', problems: [], error: null, exit: ExitCode.ok };
  }
  if (status !== undefined) return conflictOutcome(id, status, options.dryRun, err);
  const d = describeError(err, { debug: false });
  return {
    release_id: id,
    outcome: 'failed',
    status: null,
    message: d.message,
    problems: [],
    error: { code: d.code, message: d.message },
    exit: d.exitCode,
    cause: err,
  };
}

function headline(o: Internal, dryRun: boolean): string {
  const counts = countText(o.problems);
  switch (o.outcome) {
    case 'submitted':
      return `release ${o.release_id}: submitted, now ${o.status ? statusWords(o.status) : 'in review'}${o.problems.length ? ` (${counts})` : ''}`;
    case 'already_in_review':
      return `release ${o.release_id}: already in review, nothing to do`;
    case 'checked':
      return `release ${o.release_id}: ready to submit (dry run: ${counts})`;
    case 'blocked':
      return `release ${o.release_id}: ${dryRun ? 'would be blocked' : 'blocked, nothing was submitted'}: ${counts}`;
    case 'conflict':
      return `release ${o.release_id}: ${o.message}`;
    case 'failed':
      return `release ${o.release_id}: failed: ${o.message}`;
  }
}

async function paintFor(ctx: Context): Promise<Paint> {
  if (!ctx.color) return noPaint;
  const { Chalk } = await lazy.chalk();
  const c = new Chalk({ level: 1 });
  return { error: c.red, warning: c.yellow, path: c.bold, dim: c.dim };
}

export function publicOf({ exit: _e, cause: _c, offline, release_id, ...o }: Internal, sandbox: boolean): SubmitOutcome {
  return { release_id: offline || typeof release_id === 'string' ? null : release_id, ...o, sandbox };
}

/** Whether this command's requests go to the embedded sandbox (said on every --json line). */
export async function toSandbox(ctx: Context): Promise<boolean> {
  return (await ctx.services.session()).sandbox !== undefined;
}

/** Prints the outcomes (JSON, terminal groups, or TSV rows) and throws when any was not ok. */
export async function reportOutcomes(ctx: Context, outcomes: Internal[], options: { dryRun: boolean; single: boolean; printJson?: boolean }): Promise<void> {
  // A single release that could not be reached at all: its own error, as is.
  if (options.single && outcomes[0]?.outcome === 'failed') throw outcomes[0].cause;
  if (ctx.globals.json) {
    if (options.printJson !== false) {
      const sandbox = outcomes[0]?.offline ? false : await toSandbox(ctx);
      printJson(ctx, options.single ? publicOf(outcomes[0]!, sandbox) : outcomes.map((o) => publicOf(o, sandbox)));
    }
  } else if (ctx.io.stdoutIsTTY) {
    const paint = await paintFor(ctx);
    let out = '';
    for (const [i, o] of outcomes.entries()) {
      out += `${i > 0 ? '\n' : ''}${headline(o, options.dryRun)}\n${renderProblemGroups(fixable(o), paint, '  ')}`;
    }
    ctx.io.stdout.write(out);
  } else {
    let out = '';
    for (const o of outcomes) {
      if (o.error) out += [o.release_id, o.outcome, '', 'error', o.error.code, o.message, ''].join('\t') + '\n';
      else if (o.problems.length === 0) out += [o.release_id, o.outcome, '', '', '', '', ''].join('\t') + '\n';
      else out += problemRows([String(o.release_id), o.outcome], fixable(o));
    }
    ctx.io.stdout.write(out);
  }
  const worst = worstExit(outcomes.map((o) => o.exit));
  if (worst === ExitCode.ok) return;
  const hint = options.dryRun ? 'fix the problems listed and check again' : 'fix the problems listed and submit again; --dry-run checks without submitting';
  if (options.single) {
    const o = outcomes[0]!;
    if (o.outcome === 'conflict') {
      throw new CliError(`release ${o.release_id} ${options.dryRun ? 'was not checked' : 'was not submitted'}: it is ${o.message}`, {
        exitCode: ExitCode.conflict,
        code: 'state_conflict',
      });
    }
    const { errors } = countProblems(o.problems);
    throw new ValidationFailed(
      `release ${o.release_id} ${options.dryRun ? 'would be blocked' : 'was not submitted'}: ${plural(errors, 'blocking problem')}`,
      hint,
    );
  }
  const bad = outcomes.filter((o) => o.exit !== ExitCode.ok).length;
  const verb = options.dryRun ? 'would not go through' : 'were not submitted';
  const message = `${bad} of ${outcomes.length} releases ${verb}`;
  if (worst === ExitCode.validation) throw new ValidationFailed(message, hint);
  throw new CliError(message, {
    exitCode: worst as ExitCode,
    code: worst === ExitCode.conflict ? 'state_conflict' : 'submit_failed',
    hint: 'see the lines above for each release',
  });
}
