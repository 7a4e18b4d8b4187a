// `release apply <paths…>`: makes the service match release files (see apply-one.ts for one
// release, src/cli/apply/ for the planning). Each release's line is printed as it finishes (JSON
// with --json, tab-separated when piped, a progress line on a terminal) and appended to --report.
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { collectItems, type ApplyItem } from '../../apply/collect.js';
import { runPool } from '../../apply/pool.js';
import { blockingCount, planLine, summaryLine, type PlannedRelease } from '../../apply/render.js';
import { chooseRetries, formatReportLine, interruptedLine, parseReport, retryWords, type ReportLine } from '../../apply/report.js';
import { inShard, parseShard } from '../../apply/shard.js';
import { parseOnly, selectOnly } from '../../apply/only.js';
import {
  DRIFT_WORDS,
  STATE_FILE_NAME,
  driftOf,
  readState,
  recordOf,
  stateKey,
  writeState,
  type ApplyState as SavedState,
  type Drift,
} from '../../apply/state.js';
import { trackSlots, type TrackSlot } from '../../apply/plan.js';
import { AnswerExit, CliError, ExitCode, UsageError, ValidationFailed, type FileProblem } from '../../errors.js';
import { DownloadFailed, downloadAudio, downloadDir } from '../../apply/download.js';
import type { AudioCheck } from '../../../audio/probe.js';
import type { Problem } from '../../../contract/index.js';
import type { CreatePlan } from './create-steps.js';
import { applyProblems } from './plan-checks.js';
import { countText, noPaint, renderProblemGroups } from './problems.js';
import { note, plural, printList, tsvCell, type Column, writeStderr } from '../../output/index.js';
import { applyOne, indexCatalog, newApplyState, planOne, type ApplyOneOptions, type Planned, type State as ApplyState } from './apply-one.js';
import type { ApiClient } from '../../../client/index.js';
import { intOption } from '../../shared/args.js';
import { refuseLocally } from '../../shared/audio-check.js';
import { checkCoverBeforeUpload } from '../../shared/artwork-check.js';
import { warnAtDoor } from '../../shared/field-checks.js';
import { titleFrom } from '../../shared/audio-title.js';
import { runProgress, type RunProgress } from '../../output/run-progress.js';
import { partSettings } from '../../shared/upload-settings.js';
import type { ApplyOpts } from './spec.js';

const DEFAULT_PARALLEL = 4;

export async function run(ctx: Context, opts: ApplyOpts, args: string[]): Promise<void> {
  const parallel = intOption(opts.parallel, '--parallel', 1, 32) ?? DEFAULT_PARALLEL;
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  // A scheduled check: the plan, failing on any change or drift.
  const planOnly = opts.plan === true || opts.expectNoChanges === true;
  if (planOnly && opts.report !== undefined)
    throw new UsageError(
      `${opts.plan ? '--plan' : '--expect-no-changes'} and --report do not go together`,
      'a plan sends nothing, so there is nothing to report',
    );
  const retryReport = opts.onlyFailed === undefined ? undefined : await readRetryReport(opts.onlyFailed);

  const only = opts.only === undefined ? undefined : parseOnly(opts.only);
  let items = await collectItems(args);
  if (only) items = selectOnly(items, only);
  if (shard) items = items.filter((i) => inShard(i.catalogNumber, shard));
  if (retryReport) {
    const { retry, why } = chooseRetries(items, retryReport.lines);
    // Said on stderr even when it is not a terminal: a CI log should show what a retry chose.
    if (!ctx.globals.quiet)
      writeStderr(
        ctx,
        `${retryReport.missing ? `${opts.onlyFailed}: no such file (no release was reported); ` : ''}${retryWords(opts.onlyFailed!, retry.length, items.length, why)}\n`,
      );
    items = retry;
  }
  // What the submit would block in the files' values, said now (what can never pass stopped the run already).
  warnAtDoor(
    ctx,
    items.flatMap((i) => i.plan.warnings ?? []),
  );
  if (items.length === 0) {
    if (!retryReport) note(ctx, 'no releases to apply');
    return;
  }
  const statePath = await statePathOf(opts.state, args);
  if (planOnly) {
    const { client, options, audio, service } = await prepare(ctx, items, opts);
    const planned = await planAll(items, parallel, (item) => planOne(client, item, options));
    const saved = statePath === undefined ? undefined : await readSavedState(ctx, statePath, service);
    return showPlan(ctx, planned, audio, { saved, statePath, expectNoChanges: opts.expectNoChanges === true });
  }

  const out = new LineWriter(ctx, items.length, opts.report);
  // Where each release stands: its line once finished, else what exists of it while in flight.
  const finished: (ReportLine | undefined)[] = new Array(items.length);
  const running = new Map<number, { state: ApplyState; task: Promise<ReportLine> }>();
  let sandbox = false;
  // What this run saw of each release it brought where its file wants, for the state file.
  const seen = new StateRecorder(ctx, statePath);
  // One line for all the run's uploads (every release's at once), on stderr.
  let uploads: RunProgress | undefined;
  const work = (async () => {
    const { client, options, service, sizes } = await prepare(ctx, items, opts);
    sandbox = options.sandbox;
    seen.service = service;
    const progress = runProgress(
      ctx,
      items.map((item) => uploadsOf(item, sizes)),
    );
    uploads = progress;
    await runPool(
      items,
      parallel,
      async (item, i) => {
        const state = newApplyState();
        const task = applyOne(client, item, { ...options, uploads: progress.part(i) }, state);
        running.set(i, { state, task });
        const line = await task;
        // A line that ends after the stop is settled with the interrupted ones (stopRun).
        if (ctx.signal.aborted) return;
        running.delete(i);
        finished[i] = line;
        progress.settle(i);
        // The line first: a stop while the state's read-back is on the way must not keep it from the report.
        await out.write(line);
        await seen.record(client, item, line, state);
      },
      ctx.signal,
    );
  })();
  ctx.explainTimeout(() => stoppedError(ctx.signal.reason, finished, items.length, opts.report));
  try {
    await Promise.race([work, abortedOf(ctx.signal)]);
  } catch (err) {
    if (!ctx.signal.aborted) throw err;
  } finally {
    uploads?.done();
  }
  if (ctx.signal.aborted) {
    await stopRun(ctx, items, finished, running, out, sandbox);
    await seen.save();
    throw stoppedError(ctx.signal.reason, finished, items.length, opts.report);
  }
  await seen.save();
  if (!ctx.globals.json && ctx.io.stdoutIsTTY)
    await printList(
      ctx,
      finished.filter((l) => l !== undefined),
      SUMMARY_COLUMNS,
    );
  finish(finished.filter((l) => l !== undefined));
}

/** The client, the session and what every release's steps share; at most once per run. */
async function prepare(
  ctx: Context,
  items: readonly ApplyItem[],
  opts: ApplyOpts,
): Promise<{ client: ApiClient; options: ApplyOneOptions; audio: ReadonlyMap<string, AudioCheck>; service: string; sizes: ReadonlyMap<string, number> }> {
  // Audio named by address first: downloaded (or found from an earlier run), then checked as any file.
  await downloadAddressed(ctx, items);
  // The service's audio rules, offline, on every audio file named: one it would refuse stops the
  // whole run before anything is created or uploaded, as it does for `release create --file`.
  const files = audioFiles(items);
  const checks = await refuseLocally(files, 'nothing was sent');
  // Each file's size, for the progress of the uploads.
  const sizes = new Map(checks.map((c, i) => [files[i]!.path, c.sizeBytes]));
  // Each cover from its bytes, likewise: one the service would refuse stops the run.
  for (const item of items) {
    const cover = item.plan.artwork;
    // A cover by its sha256 (an export) has no bytes here: the plan holds it to the service's.
    if (cover && cover.stored === undefined) {
      const check = await checkCoverBeforeUpload(ctx, { path: cover.path, shown: cover.written }, `${item.file}: artwork`, 'nothing was sent');
      sizes.set(cover.path, check.sizeBytes);
    }
  }
  // Titles from the tags those checks read (every track's file is among them): no second read.
  const tagTitles = new Map(files.map((f, i) => [f.path, checks[i]!.title]));
  const titleOf = async (path: string) => titleFrom(tagTitles.get(path), path);
  // A bad upload setting is said before anything is sent.
  partSettings(ctx.env, opts);
  const client = await ctx.services.client({ workload: 'long' });
  const session = await ctx.services.session();
  const sandbox = session.sandbox !== undefined;
  // The state file names the service its releases are on (the embedded sandbox by its data folder: its port changes).
  const service = session.sandbox ? `sandbox:${session.sandbox.dataDir}` : session.baseUrl;
  const audio = new Map(files.map((f, i) => [f.path, checks[i]!]));
  return {
    client,
    audio,
    service,
    sizes,
    options: {
      submit: opts.submit === true,
      signal: ctx.signal,
      known: await indexCatalog(client, items.length),
      titleOf,
      sandbox,
      // No checkpoint file: every run of one catalog (at once, later, or on another CI runner) asks for a track's upload
      // under the same Idempotency-Key, so the service's record of it names the upload to continue, and the service
      // says which parts it holds (client/upload.ts, `shared`).
      partsOf: () => partSettings(ctx.env, opts),
    },
  };
}

/** How long releases in flight when the run is stopped may take to end (their requests are aborted). */
const IN_FLIGHT_GRACE_MS = 1000;

/**
 * The run was stopped: every release without its line gets one before the command ends. One that
 * ended on its own after the stop keeps its own outcome (unless it failed: the stop may be why);
 * the others are interrupted, saying what exists of them.
 */
async function stopRun(
  ctx: Context,
  items: readonly ApplyItem[],
  finished: (ReportLine | undefined)[],
  running: ReadonlyMap<number, { state: ApplyState; task: Promise<ReportLine> }>,
  out: LineWriter,
  sandbox: boolean,
): Promise<void> {
  const ended = new Map<number, ReportLine>();
  const settle = [...running].map(([i, r]) => r.task.then((line) => void ended.set(i, line)));
  await Promise.race([Promise.all(settle), delay(IN_FLIGHT_GRACE_MS)]);
  const stop = stopWords(ctx.signal.reason);
  for (const [i, item] of items.entries()) {
    if (finished[i] !== undefined) continue;
    const own = ended.get(i);
    const state = running.get(i)?.state;
    finished[i] =
      own !== undefined && own.outcome !== 'failed'
        ? own
        : interruptedLine(
            {
              file: item.file,
              catalogNumber: item.catalogNumber,
              started: state !== undefined,
              sandbox,
              releaseId: own?.release_id ?? state?.releaseId ?? null,
              status: own?.status ?? state?.status ?? null,
            },
            stop,
          );
    await out.write(finished[i]);
  }
  if (!ctx.globals.json && ctx.io.stdoutIsTTY)
    await printList(
      ctx,
      finished.filter((l) => l !== undefined),
      SUMMARY_COLUMNS,
    );
}

function stopWords(reason: unknown): { code: string; words: string } {
  if (reason instanceof CliError) return { code: reason.code === 'failed' ? 'interrupted' : reason.code, words: reason.message };
  return { code: 'interrupted', words: 'interrupted' };
}

/** The command's error once stopped: the same code as the stop (7 for --timeout, 130 for a signal), with the tally. */
function stoppedError(reason: unknown, lines: readonly (ReportLine | undefined)[], total: number, report: string | undefined): CliError {
  const { code, words } = stopWords(reason);
  const exitCode = reason instanceof CliError ? reason.exitCode : ExitCode.interrupted;
  const done = lines.filter((l) => l !== undefined && l.outcome !== 'interrupted').length;
  const hint = `run the same command again: it resumes where it stopped${report !== undefined ? `; or retry only what is left with --only-failed ${report}` : ''}`;
  return new CliError(`${words}: ${done} of ${plural(total, 'release')} finished, ${total - done} not (each has its line, outcome interrupted)`, {
    exitCode,
    code,
    hint,
  });
}

/** Resolves when the signal aborts; never otherwise. */
function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Each release's line as it finishes: stdout (JSON, or a tab-separated row when piped), the terminal's progress line, the report. */
class LineWriter {
  private count = 0;
  private reportWrites = Promise.resolve();
  private readonly live: boolean;

  constructor(
    private readonly ctx: Context,
    private readonly total: number,
    private readonly report: string | undefined,
  ) {
    this.live = ctx.io.stderrIsTTY && !ctx.globals.quiet && !ctx.globals.json;
  }

  async write(line: ReportLine): Promise<void> {
    const { ctx, report } = this;
    this.count++;
    if (report !== undefined) {
      // One append per line, in order, as they finish: a killed run's report keeps what finished.
      this.reportWrites = this.reportWrites.then(() => appendFile(report, formatReportLine(line)));
      await this.reportWrites;
    }
    if (ctx.globals.json) ctx.io.stdout.write(formatReportLine(line));
    else if (!ctx.io.stdoutIsTTY) ctx.io.stdout.write(`${tsvLine(line)}\n`);
    const blocked = line.outcome === 'blocked';
    if (this.live)
      writeStderr(
        ctx,
        `[${this.count}/${this.total}] ${line.catalog_number} ${line.outcome}${line.error ? `: ${line.error.message}` : blocked ? `, nothing was submitted: ${countText(line.problems)}` : ''}\n`,
      );
    // Why it was blocked, as `release submit` shows it, right after its line (stdout keeps one row
    // per release for scripts; --json and the report carry the problems themselves).
    if (blocked && !ctx.globals.json) {
      const head = this.live ? '' : `${line.catalog_number} (${line.file}): blocked, nothing was submitted: ${countText(line.problems)}\n`;
      writeStderr(ctx, head + renderProblemGroups(line.problems, noPaint, '  '));
    }
  }
}

/** The files a release may upload (its tracks' audio and its cover, each with its bytes here): its part of the run's progress until planned. */
function uploadsOf(item: ApplyItem, sizes: ReadonlyMap<string, number>): { path: string; size: number }[] {
  const paths = item.plan.tracks.filter((t) => t.stored === undefined && t.path !== '').map((t) => t.path);
  const cover = item.plan.artwork;
  if (cover && cover.stored === undefined) paths.push(cover.path);
  return paths.map((path) => ({ path, size: sizes.get(path) ?? 0 }));
}

/** Each audio file of the releases once, named as its release file writes it. */
function audioFiles(items: readonly ApplyItem[]): { path: string; shown: string; namedIn: string }[] {
  const byPath = new Map<string, { shown: string; namedIn: string }>();
  for (const item of items)
    for (const t of item.plan.tracks)
      if (t.stored === undefined && t.path !== '' && !byPath.has(t.path)) byPath.set(t.path, { shown: t.written, namedIn: item.file });
  return [...byPath].map(([path, named]) => ({ path, ...named }));
}

/** Downloads the audio of every track named by address (each address once) and points the track at the file; any failure stops the run, nothing sent. */
async function downloadAddressed(ctx: Context, items: readonly ApplyItem[]): Promise<void> {
  const tracks = items.flatMap((item) => item.plan.tracks.filter((t) => t.url !== undefined).map((t) => ({ item, t })));
  if (tracks.length === 0) return;
  const urls = [...new Set(tracks.map(({ t }) => t.url!))];
  const paths = new Map<string, string>();
  const failed: FileProblem[] = [];
  const dir = downloadDir(ctx.env);
  await runPool(
    urls,
    DOWNLOADS_IN_FLIGHT,
    async (url) => {
      try {
        paths.set(url, await downloadAudio(url, { dir, signal: ctx.signal }));
      } catch (err) {
        if (!(err instanceof DownloadFailed)) throw err;
        const namedIn = tracks.find(({ t }) => t.url === url)!.item.file;
        failed.push({ file: err.shown, code: 'download_failed', message: err.message.slice(err.shown.length + 2), named_in: namedIn });
      }
    },
    ctx.signal,
  );
  ctx.signal.throwIfAborted();
  if (failed.length > 0)
    throw new CliError(`the audio of ${failed.length} ${failed.length === 1 ? 'address' : 'addresses'} could not be downloaded; nothing was sent`, {
      code: 'download_failed',
      files: failed,
      hint: 'check the addresses in the release files named above (or give the audio as files) and run again',
    });
  for (const { t } of tracks) t.path = paths.get(t.url!)!;
}

/** Audio downloads at once. */
const DOWNLOADS_IN_FLIGHT = 4;

/** The report --only-failed names; a file that does not exist is a report without lines (a run killed before its first). */
async function readRetryReport(report: string): Promise<{ lines: ReportLine[]; missing: boolean }> {
  let text: string;
  try {
    text = await readFile(report, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], missing: true };
    throw new UsageError(`--only-failed ${report}: cannot read the file`, 'pass a report written by `reldist release apply --report`');
  }
  return { lines: parseReport(report, text), missing: false };
}

async function planAll(items: readonly ApplyItem[], parallel: number, plan: (item: ApplyItem) => Promise<Planned>): Promise<Planned[]> {
  const out: Planned[] = new Array(items.length);
  await runPool(items, parallel, async (item, i) => {
    out[i] = await plan(item);
  });
  return out;
}

/**
 * The plan, one line per release; with --submit, each submit checked offline as `release create
 * --check` does, and one that would be blocked marked `!` with its problems. Exit 3 when any would
 * be blocked (it wins over 8), else 8 when anything would change: an answer, so no error line.
 */
async function showPlan(
  ctx: Context,
  planned: readonly Planned[],
  audio: ReadonlyMap<string, AudioCheck>,
  drift: { saved: SavedState | undefined; statePath: string | undefined; expectNoChanges: boolean },
): Promise<void> {
  const { saved } = drift;
  // Without a state (none kept, or none yet), drift cannot be told: null, said once.
  const drifts: (Drift | null)[] = planned.map((p) =>
    saved === undefined ? null : driftOf(saved.releases[stateKey(p.item.catalogNumber)], p.desired, p.existing?.release),
  );
  const shown: PlannedRelease[] = planned.map((p) => ({
    file: p.item.file,
    catalogNumber: p.item.catalogNumber,
    plan: p.plan,
    ...(p.plan.submit ? { submitProblems: submitProblemsOf(p, audio, ctx.now()) } : {}),
  }));
  let out = '';
  for (const [i, s] of shown.entries()) {
    const { plan } = s;
    const d = drifts[i] ?? null;
    const problems = s.submitProblems ?? [];
    if (ctx.globals.json) {
      out += `${JSON.stringify({
        file: s.file,
        catalog_number: s.catalogNumber.trim(),
        release_id: plan.releaseId ?? null,
        action: plan.action,
        status: plan.status ?? null,
        submit: plan.submit,
        submit_blocked: blockingCount(problems) > 0,
        problems,
        reason: plan.reason ?? null,
        changes: plan.changes.map((c) => ({ kind: c.kind, fields: c.fields.map((f) => f.path) })),
        drift: d,
      })}\n`;
    } else {
      out += `${planLine(s)}${d === null || d === 'none' ? '' : `  [${DRIFT_WORDS[d]}]`}\n`;
      if (blockingCount(problems) > 0) out += renderProblemGroups(problems, noPaint, '    ');
    }
  }
  const blocked = shown.filter((s) => s.plan.submit && blockingCount(s.submitProblems) > 0);
  const summary = summaryLine(
    planned.map((p) => p.plan),
    blocked.length,
  );
  const drifted = drifts.filter((d) => d === 'service' || d === 'both').length;
  const fileChanged = drifts.filter((d) => d === 'file' || d === 'both').length;
  const driftSummary = saved === undefined ? '' : `; since the last apply: ${drifted} changed on the service, ${fileChanged} files changed`;
  if (!ctx.globals.json) out += `${summary}${driftSummary}\n`;
  ctx.io.stdout.write(out);
  if (drift.expectNoChanges && saved === undefined && !ctx.globals.quiet)
    writeStderr(
      ctx,
      `note: ${drift.statePath === undefined ? 'no apply state (give --state FILE, or apply one folder)' : `no apply state in ${drift.statePath} yet`}: changes on the service since the last apply cannot be told\n`,
    );
  if (blocked.length > 0) {
    throw new ValidationFailed(
      `${blocked.length} of ${plural(shown.length, 'release')} would be blocked at submit: ${blocked.map((b) => b.catalogNumber.trim()).join(', ')}`,
      'fix the problems listed under each (the same checks as `reldist release create --file F --check`), then plan again',
    );
  }
  const pending = planned.some((p) => p.plan.action === 'create' || p.plan.action === 'update' || p.plan.submit);
  if (pending) throw new AnswerExit(ExitCode.changesPending, `changes pending: ${summary}${driftSummary}`);
  // Converged again, yet someone changed a release or its file since the last apply: a CI check wants to know.
  if (drift.expectNoChanges && (drifted > 0 || fileChanged > 0)) throw new AnswerExit(ExitCode.changesPending, `no changes pending, but drift${driftSummary}`);
}

/** The submit checks, offline, on what the release would be once its file is applied. */
function submitProblemsOf(p: Planned, audio: ReadonlyMap<string, AudioCheck>, now: Date): Problem[] {
  const { item } = p;
  const plan: CreatePlan = {
    source: item.file,
    release: item.plan.release,
    tracks: item.plan.tracks.map((t) => ({ path: t.path, shown: t.written, fields: t.fields })),
    delivery: item.plan.delivery,
    video: item.plan.video,
  };
  const slots = trackSlots(item.plan.tracks);
  // A track without audio yet counts with the service's audio at its place (none: the submit is blocked by it).
  const checks = item.plan.tracks.map((t, i) =>
    t.stored === undefined && t.absent !== true ? audio.get(t.path)! : storedAudioCheck(t.written, p.existing, slots[i]!),
  );
  return applyProblems(plan, p.desired.defaultTitles, checks, now, p.existing);
}

/**
 * The service's own audio of a track referred to by its sha256, as the offline checks read a file.
 * Planning has already refused a reference the service's track does not hold.
 */
function storedAudioCheck(written: string, existing: Planned['existing'], slot: TrackSlot): AudioCheck {
  const file = existing?.tracks.find((t) => t.disc === slot.disc && t.position === slot.position)?.file ?? null;
  return {
    path: written,
    format: file?.format ?? 'unknown',
    channels: file?.channels,
    sampleRate: file?.sample_rate,
    bitDepth: file?.bit_depth,
    durationSeconds: file ? file.duration_ms / 1000 : undefined,
    sizeBytes: file?.size ?? 0,
    errors: [],
    warnings: [],
  };
}

function tsvLine(l: ReportLine): string {
  return [l.file, l.catalog_number, l.release_id ?? '', l.action ?? '', l.outcome, l.status ?? '', tsvCell(l.error?.message ?? '')].map(String).join('\t');
}

const SUMMARY_COLUMNS: Column<ReportLine>[] = [
  { header: 'Catalog no.', value: 'catalog_number' },
  // A path is copied whole: on a narrow terminal it goes (the catalog number names the release).
  { header: 'File', value: 'file', drop: 1 },
  { header: 'Release', value: 'release_id', kind: 'id' },
  { header: 'Outcome', value: 'outcome' },
  { header: 'Status', value: 'status', kind: 'status' },
  { header: 'Note', value: (l) => l.error?.message ?? (l.problems.length > 0 ? plural(l.problems.length, 'problem') : ''), cut: true },
];

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

/** --state FILE, else .reldist-state.json in the one folder applied; none otherwise (several paths: which folder's?). */
async function statePathOf(flag: string | undefined, args: readonly string[]): Promise<string | undefined> {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--state: give a file name');
    return flag;
  }
  if (args.length !== 1) return undefined;
  try {
    return (await stat(args[0]!)).isDirectory() ? join(args[0]!, STATE_FILE_NAME) : undefined;
  } catch {
    return undefined;
  }
}

async function readSavedState(ctx: Context, path: string, service: string): Promise<SavedState | undefined> {
  const { state, found, otherService } = await readState(path, service);
  if (otherService !== undefined && !ctx.globals.quiet)
    writeStderr(ctx, `note: ${path} is the state of another service (${otherService}); drift is not told against it\n`);
  return found && otherService === undefined ? state : undefined;
}

/** The outcomes after which the release is where its file wants it (or only reported): recorded in the state. */
const RECORDED: readonly ReportLine['outcome'][] = ['created', 'updated', 'unchanged', 'submitted', 'converged', 'skipped', 'blocked'];

/**
 * The state file of a run: the records of the releases it brought to their files (what the
 * service held afterwards), merged into the file's others and written once at the end (and when
 * stopped): a killed run leaves the previous state, so its releases show as changed on the
 * service until the next apply records them.
 */
class StateRecorder {
  service: string | undefined;
  private readonly records = new Map<string, ReturnType<typeof recordOf>>();

  constructor(
    private readonly ctx: Context,
    private readonly path: string | undefined,
  ) {}

  async record(client: ApiClient, item: ApplyItem, line: ReportLine, state: ApplyState): Promise<void> {
    if (this.path === undefined || !RECORDED.includes(line.outcome) || state.desired === null || line.release_id === null) return;
    let release = state.seen;
    // Written by this run: read once more, so that the record holds what the service made of it (codes assigned at submit).
    if (line.outcome !== 'unchanged' && line.outcome !== 'skipped') {
      try {
        release = await client.call('getRelease', { params: { releaseId: line.release_id }, signal: this.ctx.signal });
      } catch {
        return;
      }
    }
    if (release === null || release.id !== line.release_id) return;
    this.records.set(stateKey(item.catalogNumber), recordOf(item.catalogNumber, state.desired, release, this.ctx.now()));
  }

  async save(): Promise<void> {
    if (this.path === undefined || this.service === undefined || this.records.size === 0) return;
    // The releases are applied whatever becomes of the state: a state not written costs a false
    // "changed on the service" at the next plan, not this run's outcome. Said, never silenced.
    try {
      const { state } = await readState(this.path, this.service);
      for (const [key, record] of this.records) state.releases[key] = record;
      await writeState(this.path, { format: 1, service: this.service, releases: state.releases });
    } catch (err) {
      writeStderr(this.ctx, `warning: the apply state was not saved to ${this.path}: ${describeError(err, { debug: false }).message}\n`);
    }
  }
}
