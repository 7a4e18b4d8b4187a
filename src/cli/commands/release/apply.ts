// `release apply <paths…>`: makes the service match release files (see apply-one.ts for one
// release, src/cli/apply/ for the planning). Each release's line is printed as it finishes (JSON
// with --json, tab-separated when piped, a progress line on a terminal) and appended to --report.
import { appendFile, readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { normaliseCatalogNumber } from '../../apply/catalog-key.js';
import { collectItems, type ApplyItem } from '../../apply/collect.js';
import { runPool } from '../../apply/pool.js';
import { planLine, summaryLine } from '../../apply/render.js';
import { failedItems, formatReportLine, parseReport, type ReportLine } from '../../apply/report.js';
import { inShard, parseShard } from '../../apply/shard.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { note, plural, printList, tsvCell, type Column } from '../../output/index.js';
import { applyOne, indexCatalog, planOne, type Planned } from './apply-one.js';
import { intOption } from '../../shared/args.js';
import { refuseLocally } from '../../shared/audio-check.js';
import { titleFrom } from '../../shared/audio-title.js';
import type { ApplyOpts } from './spec.js';

const DEFAULT_PARALLEL = 4;

export async function run(ctx: Context, opts: ApplyOpts, args: string[]): Promise<void> {
  const parallel = intOption(opts.parallel, '--parallel', 1, 32) ?? DEFAULT_PARALLEL;
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (opts.plan && opts.report !== undefined) throw new UsageError('--plan and --report do not go together', '--plan sends nothing, so there is nothing to report');
  const retry = opts.onlyFailed === undefined ? undefined : await retrySet(opts.onlyFailed);

  let items = await collectItems(args);
  if (shard) items = items.filter((i) => inShard(i.catalogNumber, shard));
  if (retry) items = items.filter((i) => retry.has(normaliseCatalogNumber(i.catalogNumber)));
  if (items.length === 0) {
    note(ctx, 'no releases to apply');
    return;
  }
  // The service's audio rules, offline, on every audio file named: one it would refuse stops the
  // whole run before anything is created or uploaded, as it does for `release create --file`.
  const files = audioFiles(items);
  const checks = await refuseLocally(files, 'nothing was sent');
  // Titles from the tags those checks read (every track's file is among them): no second read.
  const tagTitles = new Map(files.map((f, i) => [f.path, checks[i]!.title]));
  const titleOf = async (path: string) => titleFrom(tagTitles.get(path), path);
  const client = await ctx.services.client({ workload: 'long' });
  const sandbox = (await ctx.services.session()).sandbox !== undefined;
  const options = { submit: opts.submit === true, signal: ctx.signal, known: await indexCatalog(client, items.length), titleOf, sandbox };
  if (opts.plan) return showPlan(ctx, await planAll(items, parallel, (item) => planOne(client, item, options)));

  const lines: ReportLine[] = [];
  let reportWrites = Promise.resolve();
  const live = ctx.io.stderrIsTTY && !ctx.globals.quiet && !ctx.globals.json;
  await runPool(items, parallel, async (item) => {
    const line = await applyOne(client, item, options);
    if (ctx.signal.aborted) return;
    lines.push(line);
    if (opts.report !== undefined) {
      const file = opts.report;
      // One append per line, in order, as they finish: a killed run's report keeps what finished.
      reportWrites = reportWrites.then(() => appendFile(file, formatReportLine(line)));
      await reportWrites;
    }
    if (ctx.globals.json) ctx.io.stdout.write(formatReportLine(line));
    else if (!ctx.io.stdoutIsTTY) ctx.io.stdout.write(`${tsvLine(line)}\n`);
    if (live) ctx.io.stderr.write(`[${lines.length}/${items.length}] ${line.catalog_number} ${line.outcome}${line.error ? `: ${line.error.message}` : ''}\n`);
  });
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (!ctx.globals.json && ctx.io.stdoutIsTTY) await printList(ctx, orderLike(items, lines), SUMMARY_COLUMNS);
  finish(lines);
}

/** Each audio file of the releases once, named as its release file writes it. */
function audioFiles(items: readonly ApplyItem[]): { path: string; shown: string; namedIn: string }[] {
  const byPath = new Map<string, { shown: string; namedIn: string }>();
  for (const item of items) for (const t of item.plan.tracks) if (!byPath.has(t.path)) byPath.set(t.path, { shown: t.written, namedIn: item.file });
  return [...byPath].map(([path, named]) => ({ path, ...named }));
}

async function retrySet(report: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(report, 'utf8');
  } catch {
    throw new UsageError(`--only-failed ${report}: cannot read the file`, 'pass a report written by `reldist release apply --report`');
  }
  return new Set(failedItems(parseReport(report, text)).map((l) => normaliseCatalogNumber(l.catalog_number)));
}

async function planAll(items: readonly ApplyItem[], parallel: number, plan: (item: ApplyItem) => Promise<Planned>): Promise<Planned[]> {
  const out: Planned[] = new Array(items.length);
  await runPool(items, parallel, async (item, i) => {
    out[i] = await plan(item);
  });
  return out;
}

function showPlan(ctx: Context, planned: readonly Planned[]): void {
  for (const p of planned) {
    if (ctx.globals.json) {
      const { plan } = p;
      ctx.io.stdout.write(`${JSON.stringify({
        file: p.item.file, catalog_number: p.item.catalogNumber.trim(), release_id: plan.releaseId ?? null, action: plan.action,
        status: plan.status ?? null, submit: plan.submit, reason: plan.reason ?? null,
        changes: plan.changes.map((c) => ({ kind: c.kind, fields: c.fields.map((f) => f.path) })),
      })}\n`);
    } else {
      ctx.io.stdout.write(`${planLine({ file: p.item.file, catalogNumber: p.item.catalogNumber, plan: p.plan })}\n`);
    }
  }
  const summary = summaryLine(planned.map((p) => p.plan));
  if (!ctx.globals.json) ctx.io.stdout.write(`${summary}\n`);
  const pending = planned.some((p) => p.plan.action === 'create' || p.plan.action === 'update' || p.plan.submit);
  if (pending) throw new CliError(`changes pending: ${summary}`, { exitCode: ExitCode.changesPending, code: 'changes_pending', hint: 'run the same command without --plan to apply them' });
}

function tsvLine(l: ReportLine): string {
  return [l.file, l.catalog_number, l.release_id ?? '', l.action, l.outcome, l.status ?? '', tsvCell(l.error?.message ?? '')].map(String).join('\t');
}

const SUMMARY_COLUMNS: Column<ReportLine>[] = [
  { header: 'Catalog no.', value: 'catalog_number' },
  { header: 'File', value: 'file' },
  { header: 'Release', value: 'release_id', kind: 'id' },
  { header: 'Outcome', value: 'outcome' },
  { header: 'Status', value: 'status', kind: 'status' },
  { header: 'Note', value: (l) => l.error?.message ?? (l.problems.length > 0 ? plural(l.problems.length, 'problem') : '') },
];

function orderLike(items: readonly ApplyItem[], lines: readonly ReportLine[]): ReportLine[] {
  const index = new Map(items.map((i, n) => [i.file, n]));
  return [...lines].sort((a, b) => (index.get(a.file) ?? 0) - (index.get(b.file) ?? 0));
}

/** Exit 1 when any release failed, else 3 when any submit was blocked, else 0. */
function finish(lines: readonly ReportLine[]): void {
  const count = (o: ReportLine['outcome']) => lines.filter((l) => l.outcome === o).length;
  const failed = count('failed');
  const blocked = count('blocked');
  const tally = `${plural(lines.length, 'release')}: ${failed} failed, ${blocked} blocked`;
  const hint = 'fix what the lines above say and run the same command again; it resumes where it stopped';
  if (failed > 0) throw new CliError(`apply did not finish: ${tally}`, { exitCode: ExitCode.failure, code: 'apply_failed', hint });
  if (blocked > 0) throw new CliError(`submit blocked: ${tally}`, { exitCode: ExitCode.validation, code: 'submit_blocked', hint });
}
