// Every response carries X-Request-Id, also the ones Hono answers by itself (404, errors).
import { randomFillSync } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../handler.js';
import type { AppEnv } from './env.js';

// Random bytes drawn a few hundred ids at a time: one call into the random source per request
// was a visible share of a small request's time.
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 512);
let used = pool.length;

export function newRequestId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = `req_${pool.toString('base64url', used, used + ID_BYTES)}`;
  used += ID_BYTES;
  return id;
}

/** The access log's line for one request: the path only (query strings may carry upload signatures, and headers carry tokens). */
export function logRequest(log: Logger, id: string, method: string, path: string, status: number, started: number): void {
  log.info('request', { request_id: id, method, path, status, ms: Math.round(performance.now() - started) });
}

export function requestId(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = newRequestId();
    const started = performance.now();
    c.set('requestId', id);
    c.set('log', log);
    await next();
    // Routes put it in their response's headers themselves (c.var.requestIdSent): reading
    // c.res.headers turns the server's plain response into a web Headers object, at a cost.
    if (!c.var.requestIdSent) c.res.headers.set('x-request-id', id);
    logRequest(log, id, c.req.method, c.req.path, c.res.status, started);
  };
}
