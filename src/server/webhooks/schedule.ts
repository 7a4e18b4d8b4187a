// When a failed delivery is attempted again: exponential backoff with jitter (5 s, 30 s, 2 min,
// 10 min, 1 h, 3 h, 6 h, 12 h, then daily) until the retry horizon (3 days by default) has passed
// since the event, then the delivery fails for good. A shorter horizon (tests: seconds) shrinks
// the whole schedule by the same factor, so it keeps its number of attempts. Pure.

const DAY_MS = 86_400_000;
export const DEFAULT_RETRY_HORIZON_MS = 3 * DAY_MS;
/** Seconds after the 1st, 2nd, … failed attempt; the last repeats. */
const DELAYS_S = [5, 30, 120, 600, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600];
/** No retry sooner than this, whatever the horizon. */
const MIN_DELAY_MS = 20;
/** ±20 %: receivers that failed together are not all retried at the same instant. */
const JITTER = 0.2;

/** The wait after `failures` failed attempts (1 or more), scaled to the horizon, with jitter (`random` in [0, 1)). */
export function retryDelayMs(failures: number, horizonMs: number, random: number = Math.random()): number {
  const base = DELAYS_S[Math.min(Math.max(failures, 1), DELAYS_S.length) - 1]! * 1000;
  const scaled = base * Math.min(1, horizonMs / DEFAULT_RETRY_HORIZON_MS);
  return Math.max(MIN_DELAY_MS, Math.round(scaled * (1 - JITTER + 2 * JITTER * random)));
}

/** When to attempt again after `failures` failed attempts, or null when that is past the horizon. */
export function nextAttemptAt(eventAtMs: number, nowMs: number, failures: number, horizonMs: number, random?: number): number | null {
  const at = nowMs + retryDelayMs(failures, horizonMs, random);
  return at > eventAtMs + horizonMs ? null : at;
}
