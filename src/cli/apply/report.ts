// The report of `release apply --report FILE`: one JSON object per line and per release, so that
// the reports of several shards can be joined with `cat`, and `--only-failed REPORT` can retry
// what did not converge.
import * as z from 'zod';
import { EntityId, Problem, ReleaseStatus } from '../../contract/index.js';
import { UsageError } from '../errors.js';
import { normaliseCatalogNumber } from './catalog-key.js';
import { statusWords } from '../shared/release-views.js';

export const APPLY_ACTIONS = ['create', 'update', 'unchanged', 'skip'] as const;
/**
 * `interrupted`: the run stopped (--timeout, SIGINT, SIGTERM) before this release was done, in
 * flight or not started. `converged`: another run (or person) brought the release to the state
 * this run wanted while it ran: nothing failed.
 */
export const APPLY_OUTCOMES = ['created', 'updated', 'unchanged', 'submitted', 'converged', 'blocked', 'skipped', 'failed', 'interrupted'] as const;
export type ApplyOutcome = (typeof APPLY_OUTCOMES)[number];

/** What `--only-failed` retries, besides a release the report has no line for. */
export const RETRIED_OUTCOMES = ['failed', 'blocked', 'interrupted'] as const satisfies readonly ApplyOutcome[];

export const ReportLine = z.object({
  file: z.string(),
  catalog_number: z.string(),
  /** Null when the release was never created (a create that failed early). */
  release_id: EntityId.nullable(),
  /** Null on an interrupted line: the run stopped before it had decided (or said) what to do. */
  action: z.enum(APPLY_ACTIONS).nullable(),
  outcome: z.enum(APPLY_OUTCOMES),
  /** The release's status at the end, when known. */
  status: ReleaseStatus.nullable(),
  /** A blocked submit's problems, or a successful submit's warnings. */
  problems: z.array(Problem),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The run went to the embedded sandbox, not a configured service (false in reports written before the field). */
  sandbox: z.boolean().default(false),
});
export type ReportLine = z.infer<typeof ReportLine>;

/** One line of the report file, newline included. */
export function formatReportLine(line: ReportLine): string {
  return `${JSON.stringify(line)}\n`;
}

/**
 * Reads a report (JSON lines; blank lines are ignored, so are fields it does not know). Every bad
 * line is named with its number; any bad line refuses the whole report.
 */
export function parseReport(name: string, text: string): ReportLine[] {
  const lines: ReportLine[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const where = `${name}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push(`${where}: not JSON; expected one release per line, as written by --report`);
      return;
    }
    const result = ReportLine.safeParse(value);
    if (result.success) {
      lines.push(result.data);
      return;
    }
    const issue = result.error.issues[0]!;
    const path = issue.path.join('.');
    problems.push(`${where}: ${path ? `${path}: ` : ''}${issue.message}`);
  });
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1 ? problems[0]! : `${name}: ${problems.length} bad lines`,
      'give --only-failed a report written by `reldist release apply --report`',
      problems.length > 1 ? problems : undefined,
    );
  }
  return lines;
}

/** Why `--only-failed` retries a release: its last line's outcome, or no line at all. */
export type RetryReason = (typeof RETRIED_OUTCOMES)[number] | 'unreported';

/** The last line of each catalog number (reports joined with `cat`, oldest first: the latest run wins). */
export function lastLines(report: readonly ReportLine[]): Map<string, ReportLine> {
  const last = new Map<string, ReportLine>();
  for (const line of report) last.set(normaliseCatalogNumber(line.catalog_number), line);
  return last;
}

/**
 * The releases of this run that `--only-failed` retries: every one the report does not show as
 * done (converged, or skipped for a reason a retry cannot change): failed, blocked, interrupted,
 * and those with no line at all (a run killed before it wrote theirs). In the order given.
 */
export function chooseRetries<T extends { catalogNumber: string }>(
  items: readonly T[],
  report: readonly ReportLine[],
): { retry: T[]; why: Record<RetryReason, number> } {
  const last = lastLines(report);
  const why: Record<RetryReason, number> = { failed: 0, blocked: 0, interrupted: 0, unreported: 0 };
  const retry = items.filter((item) => {
    const outcome = last.get(normaliseCatalogNumber(item.catalogNumber))?.outcome;
    const reason =
      outcome === undefined ? 'unreported' : (RETRIED_OUTCOMES as readonly ApplyOutcome[]).includes(outcome) ? (outcome as RetryReason) : undefined;
    if (reason !== undefined) why[reason]++;
    return reason !== undefined;
  });
  return { retry, why };
}

const REASON_WORDS: Record<RetryReason, string> = { failed: 'failed', blocked: 'blocked', interrupted: 'interrupted', unreported: 'never reported' };

/** "retrying 7: 2 failed, 5 never reported"; "nothing to retry: all 11 done in r.jsonl". */
export function retryWords(report: string, chosen: number, of: number, why: Record<RetryReason, number>): string {
  if (chosen === 0) return `nothing to retry: ${of === 1 ? 'the release is' : `all ${of} releases are`} done in ${report}`;
  const parts = (Object.keys(why) as RetryReason[]).filter((r) => why[r] > 0).map((r) => `${why[r]} ${REASON_WORDS[r]}`);
  return `retrying ${chosen} of ${of}: ${parts.join(', ')}`;
}

/** Where a release stood when the run was stopped, for its interrupted line. */
export interface StoppedRelease {
  file: string;
  catalogNumber: string;
  /** It was being applied (else the run never got to it). */
  started: boolean;
  /** What exists on the service as far as the run knows (null: nothing it made or found). */
  releaseId: ReportLine['release_id'];
  status: ReportLine['status'];
  sandbox: boolean;
}

/**
 * The line of a release the run did not finish: what exists now, and that a re-run resumes.
 * `stop` is why the run stopped (its code and words: "timed out after 30s", "interrupted").
 */
export function interruptedLine(r: StoppedRelease, stop: { code: string; words: string }): ReportLine {
  let what: string;
  if (!r.started) what = 'before this release was started: nothing was done for it; run `reldist release apply` again to apply it';
  else {
    const now =
      r.releaseId === null
        ? 'no release had been created (one being created may have been: a re-run finds it by its catalog number)'
        : `release ${String(r.releaseId)} is ${r.status === null ? 'there' : statusWords(r.status)} (the step in flight may or may not be done)`;
    what = `while this release was being applied; ${now}; run \`reldist release apply\` again to resume`;
  }
  return {
    file: r.file,
    catalog_number: r.catalogNumber.trim(),
    release_id: r.releaseId,
    action: null,
    outcome: 'interrupted',
    status: r.started ? r.status : null,
    problems: [],
    error: { code: stop.code, message: `the run stopped (${stop.words}) ${what}` },
    sandbox: r.sandbox,
  };
}
