// `release watch`: follows releases until each settles (reached the state, rejected, or can no
// longer get there), the timeout passes, or Ctrl-C. Where the service has an event log it waits
// on it (long polls of GET /events) and reads a release again only when one of its events comes;
// elsewhere (an older service) it polls each release with conditional GETs.
import { ApiError, callIfChanged, type ApiClient } from '../../../client/index.js';
import type { ReleaseResource } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { success } from '../../output/index.js';
import { formatDuration, parseDuration } from '../../shared/duration.js';
import { releaseLabel, resolveReleaseRefs, type ReleaseRef } from '../../shared/release-ref.js';
import { choiceOption } from '../../shared/args.js';
import { WATCH_TARGETS, type WatchOpts } from './spec.js';
import { targetWords, verdictOf, type Verdict, type WatchTarget } from './watch-target.js';
import { watchView, type WatchRow, type WatchView } from './watch-view.js';
import { statusWords } from '../../shared/release-views.js';
import { FEED_WAIT_SECONDS, feedEnd } from '../../shared/event-feed.js';

const DEFAULT_INTERVAL_MS = 5_000;
const MIN_INTERVAL_MS = 1_000;
/** Without a terminal (CI) a watch never hangs a pipeline for good. */
const DEFAULT_CI_TIMEOUT_MS = 30 * 60_000;
/** Each wait is the interval plus up to this share of it, so many watchers do not poll in step. */
const JITTER = 0.2;

interface Watched {
  ref: ReleaseRef;
  etag: string | undefined;
  release: ReleaseResource | undefined;
  since: Date | undefined;
  verdict: Verdict;
}

export async function run(ctx: Context, opts: WatchOpts, args: string[]): Promise<void> {
  const target: WatchTarget = choiceOption(opts.for, '--for', WATCH_TARGETS) ?? 'reviewed';
  const intervalMs = opts.interval === undefined ? DEFAULT_INTERVAL_MS : parseDuration(opts.interval, '--interval', { minMs: MIN_INTERVAL_MS });
  // The global --timeout, with a default of its own here; both end in the same line below.
  const timeoutMs = ctx.globals.timeoutMs ?? (ctx.io.stderrIsTTY ? 0 : DEFAULT_CI_TIMEOUT_MS);
  const client = await ctx.services.client();
  const refs = await resolveReleaseRefs(client, args, ctx.signal);
  const watched: Watched[] = refs.map((ref) => ({ ref, etag: undefined, release: undefined, since: undefined, verdict: { kind: 'waiting' } }));
  ctx.explainTimeout(() => timedOut(watched, target, timeoutMs));
  const view = watchView(ctx);
  const deadline = timeoutMs > 0 ? ctx.now().getTime() + timeoutMs : undefined;
  // Where the feed ends before the first read: any change after that read is an event after it.
  const feed = await feedEnd(client, ctx.signal);
  if (feed !== undefined) await followFeed(client, ctx, watched, target, view, feed, deadline, timeoutMs);
  else {
    for (;;) {
      const throttledMs = await pollOnce(client, ctx, watched, target, view);
      view.draw(watched.map(rowOf), ctx.now());
      if (watched.every((w) => w.verdict.kind !== 'waiting')) break;
      const now = ctx.now().getTime();
      if (deadline !== undefined && now >= deadline) throw timedOut(watched, target, timeoutMs);
      let waitMs = throttledMs ?? intervalMs * (1 + Math.random() * JITTER);
      // One last look right at the deadline rather than a whole interval past it.
      if (deadline !== undefined) waitMs = Math.min(waitMs, Math.max(0, deadline - now));
      await sleep(Math.round(waitMs), ctx.signal);
    }
  }
  finish(ctx, watched, target);
}

/**
 * Waits on the event log: each release is read once, then again only when an event of it comes
 * (the state is always the one the service answers, not one worked out from events). One
 * long poll at a time for all the releases, filtered by release when there is one.
 */
async function followFeed(
  client: ApiClient,
  ctx: Context,
  watched: Watched[],
  target: WatchTarget,
  view: WatchView,
  start: number,
  deadline: number | undefined,
  timeoutMs: number,
): Promise<void> {
  let cursor = start;
  let stale: Set<number> | undefined;
  const single = watched.length === 1 ? watched[0]!.ref.id : undefined;
  for (;;) {
    const throttledMs = await pollOnce(client, ctx, watched, target, view, stale);
    view.draw(watched.map(rowOf), ctx.now());
    if (watched.every((w) => w.verdict.kind !== 'waiting')) return;
    const now = ctx.now().getTime();
    if (deadline !== undefined && now >= deadline) throw timedOut(watched, target, timeoutMs);
    if (throttledMs !== undefined) {
      await sleep(throttledMs, ctx.signal);
      continue;
    }
    // Up to the deadline, rounded down: the last poll ends at it, not past it.
    const waitSeconds = deadline === undefined ? FEED_WAIT_SECONDS : Math.min(FEED_WAIT_SECONDS, Math.floor((deadline - now) / 1000));
    let page;
    try {
      page = await client.call('listEvents', {
        query: { after: cursor, ...(single ? { release_id: Number(single) } : {}), wait: Math.max(0, waitSeconds) },
        signal: ctx.signal,
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        await sleep(Math.max(1000, (err.retryAfterSeconds ?? 0) * 1000), ctx.signal);
        continue;
      }
      throw err;
    }
    cursor = page.cursor;
    stale = new Set(page.data.map((e) => e.release_id));
    // Under a second left: the wait was 0; one short pause, then the deadline's check above.
    if (waitSeconds < 1 && page.data.length === 0 && deadline !== undefined) await sleep(Math.max(0, deadline - ctx.now().getTime()), ctx.signal);
  }
}

/**
 * One round over the releases still waiting (`only`: those of them); returns how long the
 * service asked us to pause (429), if it did.
 */
async function pollOnce(
  client: ApiClient,
  ctx: Context,
  watched: Watched[],
  target: WatchTarget,
  view: WatchView,
  only?: ReadonlySet<number>,
): Promise<number | undefined> {
  for (const w of watched) {
    if (w.verdict.kind !== 'waiting' || (only && !only.has(w.ref.id))) continue;
    let res;
    try {
      res = await callIfChanged(client, 'getRelease', { params: { releaseId: w.ref.id }, signal: ctx.signal }, w.etag);
    } catch (err) {
      // The client already waited and retried; past that, slow the whole round down as asked.
      if (err instanceof ApiError && err.status === 429) return Math.max(1000, (err.retryAfterSeconds ?? 0) * 1000);
      throw err;
    }
    if (!res.modified) continue;
    w.etag = res.etag;
    const r = res.body;
    const previous = w.release?.status ?? null;
    w.release = r;
    if (previous === r.status) continue;
    w.since = new Date(r.updated_at);
    w.verdict = verdictOf(r.status, target);
    view.change({ release_id: r.id, catalog_number: r.catalog_number, status: r.status, previous, at: r.updated_at, review: r.review });
  }
  return undefined;
}

function rowOf(w: Watched): WatchRow {
  return {
    id: w.ref.id,
    catalogNumber: w.release?.catalog_number ?? w.ref.catalogNumber,
    title: w.release?.title ?? '',
    status: w.release?.status ?? '',
    since: w.since,
  };
}

function labelOf(w: Watched): string {
  return releaseLabel(w.ref.id, w.release?.catalog_number ?? w.ref.catalogNumber);
}

/** Every release settled: success, or the worst of the outcomes as one error with a line per release. */
function finish(ctx: Context, watched: Watched[], target: WatchTarget): void {
  const rejected = watched.filter((w) => w.verdict.kind === 'rejected');
  const unreachable = watched.filter((w) => w.verdict.kind === 'unreachable');
  if (rejected.length === 0 && unreachable.length === 0) {
    for (const w of watched) success(ctx, `${labelOf(w)} is ${w.release ? statusWords(w.release.status) : undefined}`);
    return;
  }
  const details = settledFailures(watched);
  const n = watched.length;
  if (unreachable.length > 0) {
    const message =
      n === 1
        ? `${labelOf(unreachable[0]!)} cannot ${targetWords(target)}: it ${unreachable[0]!.verdict.kind === 'unreachable' ? unreachable[0]!.verdict.why : ''}`
        : `${unreachable.length} of ${n} releases cannot ${targetWords(target)}`;
    throw new CliError(message, { exitCode: ExitCode.failure, code: 'unreachable', details: n === 1 && rejected.length === 0 ? [] : details });
  }
  const message = n === 1 ? `${labelOf(rejected[0]!)} was rejected` : `${rejected.length} of ${n} releases were rejected`;
  throw new CliError(message, {
    exitCode: ExitCode.validation,
    code: 'rejected',
    details,
    hint: 'fix what the review asks for (`reldist release edit`), then submit again',
  });
}

/** One line per release that was rejected (with the reviewer's codes and notes) or cannot get there. */
function settledFailures(watched: Watched[]): string[] {
  return watched.flatMap((w) => {
    if (w.verdict.kind === 'unreachable') return [`${labelOf(w)} ${w.verdict.why}`];
    if (w.verdict.kind !== 'rejected') return [];
    const review = w.release?.review;
    const codes = review?.codes.length ? review.codes.join(', ') : 'no reason codes';
    return [`${labelOf(w)} was rejected: ${codes}${review?.notes ? ` (notes: ${review.notes})` : ''}`];
  });
}

function timedOut(watched: Watched[], target: WatchTarget, timeoutMs: number): CliError {
  const waiting = watched.filter((w) => w.verdict.kind === 'waiting');
  const which = waiting.map((w) => `${labelOf(w)} (${w.release ? statusWords(w.release.status) : 'not read yet'})`).join(', ');
  return new CliError(`timed out after ${formatDuration(timeoutMs)} waiting for ${which} to ${targetWords(target)}`, {
    exitCode: ExitCode.timedOut,
    code: 'timed_out',
    details: settledFailures(watched),
    hint: 'a longer --timeout waits longer; --timeout 0 waits forever',
  });
}

/** Sleeps, but wakes with the signal's reason (Ctrl-C) when it is aborted. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
