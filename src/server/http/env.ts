// Per-request values shared by the middleware and the route runner.
import type { HttpBindings } from '@hono/node-server';
import type { AuthUser, Logger } from '../handler.js';

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    requestId: string;
    log: Logger;
    user: AuthUser;
    /** The rate limiter's look-up of the bearer token, reused by authentication (one query per request). */
    tokenLookup: { token: string; user: AuthUser | undefined } | undefined;
  };
}
