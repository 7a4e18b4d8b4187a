// Sends the deliveries the event log queued (store/webhooks.ts), in the running service, outside
// any transaction: a change commits and answers without waiting for a receiver. Woken when this
// process queues a delivery, when another process sharing the data directory commits (a look at
// the WAL header every POLL_MS: 48 bytes), and by a timer at the next retry due; every timer is
// unref'd, so a dispatcher never keeps a process alive. Each delivery is claimed with a lease, so
// two processes never send the same attempt at once; one killed mid-send leaves a lease that runs
// out, and the delivery goes again (at least once; the webhook-id is the same every time).
//
// In a sandbox it also settles the auto-reviews falling due of accounts with an endpoint: a
// review decision is delivered when it is due, not when the account next sends a request.
import type { ServerDeps, WebhookSettings } from '../handler.js';
import { settleDueReviews, nextReviewDue } from '../handlers/sandbox.js';
import { eventById } from '../store/events.js';
import { accountsWithEndpoints, anyDue, claimDue, nextDue, recordAttempt, releaseLease, type ClaimedDelivery } from '../store/webhooks.js';
import { nextAttemptAt } from './schedule.js';
import { postWebhook } from './send.js';
import { signDelivery, signingSecrets } from './sign.js';
import { webhookBody, webhookMessageId } from '../../contract/wire-values.js';
import { onDeliveriesQueued } from './wake.js';

/** How often other processes' commits are looked for. */
const POLL_MS = 200;
/** Attempts in flight at once, per process. */
const MAX_IN_FLIGHT = 16;
/** The longest sleep between two looks when nothing is due (a clock that jumped is seen within it). */
const MAX_SLEEP_MS = 60_000;
/** A lease outlives its attempt's timeout by this much. */
const LEASE_MARGIN_MS = 5_000;

export interface Dispatcher {
  /** Stops sending: attempts in flight are abandoned and their deliveries given back. Call before closing the database. */
  stop(): void;
}

export function startDispatcher(deps: ServerDeps, settings: WebhookSettings): Dispatcher {
  const { db, log } = deps;
  const abort = new AbortController();
  const inFlight = new Map<number, ClaimedDelivery>();
  let stopped = false;
  let queued = false;
  let sleep: NodeJS.Timeout | undefined;

  const wake = () => {
    if (stopped || queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      pass();
    }).unref();
  };

  /** Settles the due sandbox reviews of accounts with endpoints; the earliest review still to come (ms), if any. */
  const settleReviews = (nowMs: number): number | undefined => {
    if (!deps.sandbox) return undefined;
    let next: number | undefined;
    for (const userId of accountsWithEndpoints(db)) {
      settleDueReviews(deps, userId);
      const due = nextReviewDue(deps, userId);
      if (due !== null && Date.parse(due) > nowMs) next = Math.min(next ?? Infinity, Date.parse(due));
    }
    return next;
  };

  const pass = () => {
    if (stopped) return;
    try {
      const now = deps.now();
      const nextReview = settleReviews(now.getTime());
      const nowIso = now.toISOString();
      const room = MAX_IN_FLIGHT - inFlight.size;
      if (room > 0 && anyDue(db, nowIso)) {
        const leaseUntil = new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS).toISOString();
        for (const job of claimDue(db, nowIso, leaseUntil, room)) void attempt(job);
      }
      const due = nextDue(db);
      const times = [nextReview, due === null ? undefined : Date.parse(due)].filter((t): t is number => t !== undefined);
      const wait = Math.min(MAX_SLEEP_MS, ...times.map((t) => Math.max(0, t - deps.now().getTime())));
      clearTimeout(sleep);
      sleep = setTimeout(wake, wait).unref();
    } catch (e) {
      // A busy database or a closing one: the next wake tries again.
      if (!stopped) log.error('webhook dispatcher failed a pass', { error: e instanceof Error ? e.message : String(e) });
      clearTimeout(sleep);
      if (!stopped) sleep = setTimeout(wake, 1000).unref();
    }
  };

  const attempt = async (job: ClaimedDelivery) => {
    inFlight.set(job.id, job);
    try {
      const event = eventById(db, job.endpoint.user_id, job.eventId);
      const at = deps.now();
      const body = event ? webhookBody(event.type, event, at) : '';
      const result = event
        ? await postWebhook(job.endpoint.url, { ...signDelivery(webhookMessageId(event.id), at, body, signingSecrets(job.endpoint, at.toISOString())) }, body, {
            timeoutMs: settings.timeoutMs,
            policy: settings.addresses,
            signal: abort.signal,
          })
        : { delivered: false, statusCode: null, error: 'the event no longer exists', durationMs: 0 };
      if (stopped) return;
      const doneAt = deps.now();
      const next =
        result.delivered || !event ? null : nextAttemptAt(Date.parse(job.createdAt), doneAt.getTime(), job.attemptsMade + 1, settings.retryHorizonMs);
      recordAttempt(db, job.id, {
        at: at.toISOString(),
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        succeeded: result.delivered,
        nextAtIso: next === null ? null : new Date(next).toISOString(),
      });
    } catch (e) {
      if (!stopped) log.error('webhook delivery failed to record', { delivery: job.id, error: e instanceof Error ? e.message : String(e) });
    } finally {
      inFlight.delete(job.id);
      wake();
    }
  };

  onDeliveriesQueued(db, wake);
  let poll: NodeJS.Timeout | undefined;
  if (deps.commits) {
    let n = 0;
    const commitCount = deps.commits.memo(() => ++n);
    let seen = commitCount();
    poll = setInterval(() => {
      const now = commitCount();
      if (now === seen) return;
      seen = now;
      wake();
    }, POLL_MS).unref();
  }
  wake();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      onDeliveriesQueued(db, undefined);
      clearTimeout(sleep);
      clearInterval(poll);
      abort.abort();
      for (const job of inFlight.values()) {
        try {
          releaseLease(db, job.id, job.leaseUntil);
        } catch {
          // The lease runs out by itself.
        }
      }
    },
  };
}
