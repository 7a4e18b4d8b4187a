// The one error body of the wire decisions, used for every error the service answers with.
import type { Context } from 'hono';
import type { ErrorBody } from '../../contract/errors.js';
import { ServiceError } from '../handler.js';
import type { AppEnv } from './env.js';

export function errorBody(err: ServiceError, requestId: string): ErrorBody {
  return {
    error: {
      status: err.status,
      code: err.code,
      message: err.message,
      request_id: requestId,
      ...(err.fields ? { fields: err.fields } : {}),
      ...(err.problems ? { problems: err.problems } : {}),
      ...(err.details ? { details: err.details } : {}),
    },
  };
}

/** Anything that is not a ServiceError is our bug: it becomes a 500 without internals in the body. */
export function asServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError(500, 'internal', 'the service failed to handle this request; see its log');
}

export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const se = asServiceError(err);
  if (se.status >= 500) {
    const e = err instanceof Error ? err : new Error(String(err));
    c.var.log?.error('request failed', { request_id: c.var.requestId, method: c.req.method, path: c.req.path, error: e.stack ?? e.message });
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...se.headers };
  if (c.var.requestId) headers['x-request-id'] = c.var.requestId;
  return new Response(JSON.stringify(errorBody(se, c.var.requestId ?? '')), { status: se.status, headers });
}
