// The report of `release apply --report FILE`: one JSON object per line and per release, so that
// the reports of several shards can be joined with `cat`, and `--only-failed REPORT` can retry
// exactly what failed.
import * as z from 'zod';
import { EntityId, Problem, ReleaseStatus } from '../../contract/index.js';
import { UsageError } from '../errors.js';
import { normaliseCatalogNumber } from './catalog-key.js';

export const APPLY_ACTIONS = ['create', 'update', 'unchanged', 'skip'] as const;
/**
 * `interrupted`: the run stopped (--timeout, SIGINT, SIGTERM) before this release was done, in
 * flight or not started. `converged`: another run (or person) brought the release to the state
 * this run wanted while it ran: nothing failed.
 */
export const APPLY_OUTCOMES = ['created', 'updated', 'unchanged', 'submitted', 'converged', 'blocked', 'skipped', 'failed', 'interrupted'] as const;
export type ApplyOutcome = (typeof APPLY_OUTCOMES)[number];

/** What `--only-failed` retries. */
export const RETRIED_OUTCOMES: readonly ApplyOutcome[] = ['failed', 'blocked'];

export const ReportLine = z.object({
  file: z.string(),
  catalog_number: z.string(),
  /** Null when the release was never created (a create that failed early). */
  release_id: EntityId.nullable(),
  action: z.enum(APPLY_ACTIONS),
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

/**
 * The releases to retry: those whose last line failed or was blocked. The last line of a catalog
 * number wins, so a release that failed in one run and succeeded in a later one (both reports
 * joined, oldest first) is not retried. In the order of first appearance.
 */
export function failedItems(report: readonly ReportLine[]): ReportLine[] {
  const last = new Map<string, ReportLine>();
  for (const line of report) last.set(normaliseCatalogNumber(line.catalog_number), line);
  return [...last.values()].filter((l) => RETRIED_OUTCOMES.includes(l.outcome));
}
