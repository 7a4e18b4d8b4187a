// Token-bucket rate limiting per bearer token (per client address for requests without a valid one).
// In memory: a restart forgives everyone, which is fine for a reference service.
import { ServiceError } from '../handler.js';

export interface RateLimitOptions {
  /** Bucket size: how many requests may come in a burst. */
  requests: number;
  /** Time for an empty bucket to refill completely. */
  windowMs: number;
}

/** Generous: a script or test suite hammering one sandbox should not notice it. */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { requests: 3000, windowMs: 60_000 };

/**
 * Whose budget a request spends: its token's (by hash, never the token), or, without a valid
 * token, its address's, so made-up tokens buy no fresh budgets.
 */
export const rateLimitKey = (tokenHash: string | undefined, remoteAddress: string | undefined): string =>
  tokenHash !== undefined ? `token:${tokenHash}` : `addr:${remoteAddress ?? 'unknown'}`;

/** The refusal of a request over its budget: 429 with Retry-After, from the middleware and from a batch's extra items alike. */
export const rateLimited = (waitSeconds: number): ServiceError =>
  new ServiceError(429, 'rate_limited', `too many requests; retry in ${waitSeconds} s`, { headers: { 'retry-after': String(waitSeconds) } });

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_BUCKETS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(private readonly options: RateLimitOptions) {
    if (!(options.requests >= 1) || !(options.windowMs > 0)) throw new Error('rate limit needs requests >= 1 and windowMs > 0');
    this.perMs = options.requests / options.windowMs;
  }

  /**
   * Takes `count` requests (1 by default) from the key's bucket; returns 0 when allowed, else
   * seconds to wait (and takes nothing, so asking again at once gives the same answer). The key
   * is kept in memory as given: never a token (the caller passes the token's hash).
   */
  take(key: string, nowMs: number, count = 1): number {
    if (count <= 0) return 0;
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.prune(nowMs);
      b = { tokens: this.options.requests, at: nowMs };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.options.requests, b.tokens + Math.max(0, nowMs - b.at) * this.perMs);
    b.at = nowMs;
    if (b.tokens >= count) {
      b.tokens -= count;
      return 0;
    }
    return Math.max(1, Math.ceil((count - b.tokens) / this.perMs / 1000));
  }

  /**
   * Takes `count` more for a request that already took one (the other items of a batch), at most
   * what a full bucket holds besides that one: any batch can pass once the bucket has refilled.
   */
  takeMore(key: string, nowMs: number, count: number): number {
    return this.take(key, nowMs, Math.min(count, this.options.requests - 1));
  }

  private prune(nowMs: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (nowMs - b.at) * this.perMs >= this.options.requests) this.buckets.delete(k);
    }
    // Everyone is mid-burst: drop the oldest half rather than grow without bound.
    if (this.buckets.size >= MAX_BUCKETS) {
      let n = 0;
      for (const k of this.buckets.keys()) if (n++ < MAX_BUCKETS / 2) this.buckets.delete(k);
    }
  }
}
