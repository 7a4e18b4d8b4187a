// When to retry and how long to wait: pure functions, so the policy is tested without a network.

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 requests) of 429, 5xx and resets. */
  maxRetries: number;
  /** First backoff step in ms; doubles each retry. */
  baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included. */
  maxDelayMs: number;
  /**
   * A keyed request answered 409 idempotency_in_progress (an earlier attempt under the same key
   * still holds it) is asked again, under the same key, until its waits add up to this many ms;
   * these waits count apart from maxRetries. Default IN_PROGRESS_WAIT_MS.
   */
  inProgressWaitMs?: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 20_000 };

/**
 * The service takes over a key whose holder is provably gone at once, and one whose holder it
 * cannot check (another host) after 30 s (IDEMPOTENCY_STALE_MS of src/server/http/idempotency.ts,
 * which the client cannot import): waiting 40 s in all covers that takeover with room for the
 * request that then runs.
 */
export const IN_PROGRESS_WAIT_MS = 40_000;

/** The longest single wait between two asks while a key is in progress. */
const IN_PROGRESS_STEP_MAX_MS = 8_000;

/**
 * The wait before asking again, number `retry` (0-based), while the key is in progress: the
 * service's Retry-After at least, growing 1, 2, 4, 8, 8… s so a 30 s takeover costs about seven
 * asks, and never past what is left of the budget (undefined: the budget is spent, give up).
 */
export function inProgressDelay(
  retry: number,
  waitedMs: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const budget = policy.inProgressWaitMs ?? IN_PROGRESS_WAIT_MS;
  const left = budget - waitedMs;
  if (left <= 0) return undefined;
  const step = Math.min(IN_PROGRESS_STEP_MAX_MS, 1000 * 2 ** retry);
  // A little jitter, so the retries of several clients do not arrive in step.
  const wanted = Math.max(retryAfterMs ?? 0, Math.round(step * (0.9 + 0.2 * random())));
  return Math.min(wanted, policy.maxDelayMs, left);
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** A request may be sent again if repeating it cannot do the work twice. */
export function isReplayable(method: string, headers: Record<string, string>): boolean {
  if (IDEMPOTENT.has(method.toUpperCase())) return true;
  return Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
}

// 500 too: a replayable request cannot do the work twice, and a passing fault often clears.
export const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Socket-level failures worth another try: the peer went away mid-way or never answered. */
const RETRY_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export function isRetryableNetworkCode(code: string | undefined): boolean {
  return code !== undefined && RETRY_CODES.has(code);
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so waits grow
 * but concurrent clients do not retry in lock-step.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + random() * (step / 2));
}

/** Retry-After is seconds or an HTTP date; returns ms to wait, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The wait before retry number `retry` (0-based): the server's Retry-After wins, capped. */
export function retryDelay(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random?: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(policy.maxDelayMs, retryAfterMs);
  return backoffDelay(retry, policy, random);
}

/** Sleeps, but wakes with the signal's reason when it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
