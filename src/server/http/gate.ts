// The door every request with a bearer token passes: its token verified (once per process, see
// auth.ts) and one request taken from its budget (rate-limit.ts). One instance per service,
// shared by the Hono app and the fast lane, so both spend the same budgets and cache.
import type { Database } from 'better-sqlite3';
import type { CommitWatch } from '../db/commit-watch.js';
import { TokenVerifier, bearerToken, type VerifiedToken } from './auth.js';
import { RateLimiter, rateLimitKey, type RateLimitOptions } from './rate-limit.js';

/** The bearer token as sent and, when the service knows it, its account. */
export interface TokenLookup {
  token: string;
  verified: VerifiedToken | undefined;
}

export class RequestGate {
  readonly verifier: TokenVerifier;
  /** Undefined when rate limiting is off. */
  readonly limiter: RateLimiter | undefined;

  /** `commits`: see TokenVerifier. */
  constructor(db: Database, options: { demoTokens: boolean; rateLimit: RateLimitOptions | false; commits?: CommitWatch }) {
    this.limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
    this.verifier = new TokenVerifier(db, { demoTokens: options.demoTokens, ...(options.commits ? { commits: options.commits } : {}) });
  }

  /** Undefined without a well-formed bearer token. */
  lookUp(authorization: string | undefined): TokenLookup | undefined {
    const token = bearerToken(authorization);
    return token === undefined ? undefined : { token, verified: this.verifier.verify(token) };
  }

  /** 0 when the request may go ahead (or limiting is off), else the seconds to wait; see RateLimiter.take. */
  take(lookup: TokenLookup | undefined, remoteAddress: string | undefined): number {
    return this.limiter ? this.limiter.take(rateLimitKey(lookup?.verified?.hash, remoteAddress), Date.now()) : 0;
  }

  /** For a request that already passed `take`: `count` more from the same budget (a batch's other items); see RateLimiter.takeMore. */
  takeMore(lookup: TokenLookup | undefined, remoteAddress: string | undefined, count: number): number {
    return this.limiter ? this.limiter.takeMore(rateLimitKey(lookup?.verified?.hash, remoteAddress), Date.now(), count) : 0;
  }
}
