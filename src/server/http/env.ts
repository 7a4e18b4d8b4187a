// Per-request values shared by the middleware and the route runner.
import type { HttpBindings } from '@hono/node-server';
import type { AuthUser, Logger } from '../handler.js';
import type { VerifiedToken } from './auth.js';

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    requestId: string;
    /** The response already carries X-Request-Id (set by the route runner). */
    requestIdSent: boolean;
    log: Logger;
    user: AuthUser;
    /** The rate limiter's verification of the bearer token, reused by authentication. */
    tokenLookup: { token: string; verified: VerifiedToken | undefined } | undefined;
    /**
     * Takes `count` more requests from this request's rate-limit budget (a batch counts its
     * items); 0 when allowed, else seconds to wait. Unset when rate limiting is off.
     */
    rateLimitMore: ((count: number) => number) | undefined;
  };
}
