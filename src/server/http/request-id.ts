// Every response carries X-Request-Id, also the ones Hono answers by itself (404, errors).
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../handler.js';
import type { AppEnv } from './env.js';

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

export function requestId(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = newRequestId();
    const started = performance.now();
    c.set('requestId', id);
    c.set('log', log);
    await next();
    c.res.headers.set('x-request-id', id);
    // The path only: query strings may carry upload signatures, and headers carry tokens.
    log.info('request', { request_id: id, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  };
}
