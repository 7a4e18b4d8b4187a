// The one error body of the wire decisions, used for every error the service answers with.
import type { Context } from 'hono';
import type { ErrorBody } from '../../contract/errors.js';
import { ServiceError, type Logger } from '../handler.js';
import { JSON_CONTENT_TYPE, type Answer } from './answer.js';
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

/** The error's answer; a 500 is logged with its stack (the body never holds internals). */
export function errorAnswer(err: unknown, request: { id: string | undefined; method: string; path: string; log: Logger | undefined }): Answer {
  const se = asServiceError(err);
  if (se.status >= 500) {
    const e = err instanceof Error ? err : new Error(String(err));
    request.log?.error('request failed', { request_id: request.id, method: request.method, path: request.path, error: e.stack ?? e.message });
  }
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, ...se.headers };
  if (request.id) headers['x-request-id'] = request.id;
  return { status: se.status, headers, body: JSON.stringify(errorBody(se, request.id ?? '')) };
}

export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const a = errorAnswer(err, { id: c.var.requestId, method: c.req.method, path: c.req.path, log: c.var.log });
  // The id is in these headers already: setting it again afterwards would turn them into a web
  // Headers object, whose order (sorted) differs from the fast lane's (http/fast-lane.ts).
  if (c.var.requestId) c.set('requestIdSent', true);
  return new Response(a.body, { status: a.status, headers: a.headers });
}
