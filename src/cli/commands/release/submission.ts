// Submitting releases (or checking them with --dry-run) and reporting every problem the service
// returns. Shared by `release submit` and `release create --submit`.
import { ApiError, type ApiClient } from '../../../client/index.js';
import type { Problem, ResponseOf } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { CliError, ExitCode, ValidationFailed, worstExit } from '../../errors.js';
import { printJson, plural } from '../../output/index.js';
import { countProblems, countText, noPaint, problemRows, renderProblemGroups, type Paint } from './problems.js';
import { lazy } from '../../lazy.js';
import { statusWords } from '../../shared/release-views.js';
import { submitNotesMaxLength } from '../../../contract/routes.js';

/** `already_in_review`: submitted before, so there was nothing to do (exit 0, like a submit). */
export type Outcome = 'submitted' | 'already_in_review' | 'checked' | 'blocked' | 'failed';

export interface SubmitOutcome {
  release_id: string;
  outcome: Outcome;
  /** The release's status afterwards (null when the request failed). */
  status: string | null;
  message: string;
  problems: Problem[];
  /** Set when outcome is failed. */
  error: { code: string; message: string } | null;
}

export interface Internal extends SubmitOutcome {
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

export async function submitOne(client: ApiClient, id: string, options: SubmitOptions): Promise<Internal> {
  try {
    const res = await client.call('submitRelease', { params: { releaseId: id }, body: submitBody(options), ...submitBodyChecked(options) });
    return answeredOutcome(id, res);
  } catch (err) {
    return refusedOutcome(client, id, err, options);
  }
}

/** A release the service answered for (submitted, or checked by a dry run). */
export function answeredOutcome(id: string, res: ResponseOf<'submitRelease'>): Internal {
  const problems = res.problems ?? [];
  const blocked = countProblems(problems).errors > 0;
  const outcome: Outcome = res.submitted ? 'submitted' : blocked ? 'blocked' : 'checked';
  return { release_id: id, outcome, status: res.release?.status ?? null, message: res.message, problems, error: null, exit: outcome === 'blocked' ? ExitCode.validation : ExitCode.ok };
}

/** A release whose submit failed: blocked by its problems, already in review, or an error. */
export async function refusedOutcome(client: ApiClient, id: string, err: unknown, options: SubmitOptions): Promise<Internal> {
  if (err instanceof ApiError && err.code === 'submit_blocked') {
    return { release_id: id, outcome: 'blocked', status: null, message: err.message, problems: err.problems ?? [], error: null, exit: ExitCode.validation };
  }
  // The service names the release's status in the refusal; an older one does not: then it is read.
  if (!options.dryRun && err instanceof ApiError && err.code === 'state_conflict' && (err.details?.status ?? (await statusOf(client, id))) === 'in_review') {
    return { release_id: id, outcome: 'already_in_review', status: 'in_review', message: 'already in review', problems: [], error: null, exit: ExitCode.ok };
  }
  const d = describeError(err, { debug: false });
  return { release_id: id, outcome: 'failed', status: null, message: d.message, problems: [], error: { code: d.code, message: d.message }, exit: d.exitCode, cause: err };
}

/** The release's status now, or undefined when even that cannot be read (the conflict then stands). */
async function statusOf(client: ApiClient, id: string): Promise<string | undefined> {
  try {
    return (await client.call('getRelease', { params: { releaseId: id } })).status;
  } catch {
    return undefined;
  }
}

function headline(o: SubmitOutcome, dryRun: boolean): string {
  const counts = countText(o.problems);
  switch (o.outcome) {
    case 'submitted':
      return `release ${o.release_id}: submitted, now ${(o.status ? statusWords(o.status) : 'in review')}${o.problems.length ? ` (${counts})` : ''}`;
    case 'already_in_review':
      return `release ${o.release_id}: already in review, nothing to do`;
    case 'checked':
      return `release ${o.release_id}: ready to submit (dry run: ${counts})`;
    case 'blocked':
      return `release ${o.release_id}: ${dryRun ? 'would be blocked' : 'blocked, nothing was submitted'}: ${counts}`;
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

export function publicOf({ exit: _e, cause: _c, ...o }: Internal): SubmitOutcome {
  return o;
}

/** Prints the outcomes (JSON, terminal groups, or TSV rows) and throws when any was not ok. */
export async function reportOutcomes(ctx: Context, outcomes: Internal[], options: { dryRun: boolean; single: boolean; printJson?: boolean }): Promise<void> {
  // A single release that could not be reached at all: its own error, as is.
  if (options.single && outcomes[0]?.outcome === 'failed') throw outcomes[0].cause;
  if (ctx.globals.json) {
    if (options.printJson !== false) printJson(ctx, options.single ? publicOf(outcomes[0]!) : outcomes.map(publicOf));
  } else if (ctx.io.stdoutIsTTY) {
    const paint = await paintFor(ctx);
    let out = '';
    for (const [i, o] of outcomes.entries()) {
      out += `${i > 0 ? '\n' : ''}${headline(o, options.dryRun)}\n${renderProblemGroups(o.problems, paint, '  ')}`;
    }
    ctx.io.stdout.write(out);
  } else {
    let out = '';
    for (const o of outcomes) {
      if (o.outcome === 'failed') out += [o.release_id, o.outcome, '', 'error', o.error?.code ?? '', o.message, ''].join('\t') + '\n';
      else if (o.problems.length === 0) out += [o.release_id, o.outcome, '', '', '', '', ''].join('\t') + '\n';
      else out += problemRows([o.release_id, o.outcome], o.problems);
    }
    ctx.io.stdout.write(out);
  }
  const worst = worstExit(outcomes.map((o) => o.exit));
  if (worst === ExitCode.ok) return;
  const hint = options.dryRun ? 'fix the problems listed and check again' : 'fix the problems listed and submit again; --dry-run checks without submitting';
  if (options.single) {
    const o = outcomes[0]!;
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
  throw new CliError(message, { exitCode: worst as ExitCode, code: 'submit_failed', hint: 'see the lines above for each release' });
}
