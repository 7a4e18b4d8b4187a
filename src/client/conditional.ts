// Conditional GETs: ask again with the ETag of the last answer, and the service answers 304 (no
// body) while nothing changed. What a watcher polls with, so polling costs the service little.
import { apiErrorFrom, ApiError } from './errors.js';
import { parseRetryAfter } from './retry.js';
import type { QueryValue } from './catalog.js';
import { buildPath, routes, type EndpointId } from '../contract/routes.js';
import type { ResponseOf } from '../contract/catalog.js';
import type { ApiClient, CallOptions } from './client.js';

/** The endpoints that answer with an ETag and honour If-None-Match (`etag: true` in routes.ts). */
export type EtagEndpointId = { [Id in EndpointId]: (typeof routes)[Id] extends { readonly etag: true } ? Id : never }[EndpointId];

export type ConditionalResult<T> = { modified: false; etag: string } | { modified: true; etag: string | undefined; body: T };

/**
 * Calls a GET endpoint with If-None-Match when `etag` is given. 304 is not an error: it comes back
 * as `{modified: false}`. Any other non-2xx throws an ApiError (with Retry-After when the service
 * sent one), after the client's own retries.
 */
export async function callIfChanged<Id extends EtagEndpointId>(
  client: ApiClient,
  endpointId: Id,
  options: CallOptions<Id>,
  etag: string | undefined,
): Promise<ConditionalResult<ResponseOf<Id>>> {
  const route = routes[endpointId];
  const params: Readonly<Record<string, string | number>> = options.params ?? {};
  const path = buildPath(route.path, { ...params });
  const res = await client.send({
    method: route.method,
    path,
    query: wireQuery(options.query),
    headers: { ...options.headers, ...(etag ? { 'if-none-match': etag } : {}) },
    signal: options.signal,
    endpoint: { paginated: false, id: endpointId },
  });
  if (res.status === 304) return { modified: false, etag: res.headers.etag ?? etag ?? '' };
  if (res.status >= 200 && res.status < 300) {
    return { modified: true, etag: res.headers.etag, body: await client.typedResponse(endpointId, res.data) };
  }
  const err = apiErrorFrom(res.status, res.statusText, res.text, res.headers, { method: route.method, path });
  const after = parseRetryAfter(res.headers['retry-after']);
  if (after === undefined && res.attempts === 1) throw err;
  throw new ApiError({
    status: err.status,
    code: err.code,
    message: err.message,
    requestId: err.requestId,
    fields: err.fields,
    problems: err.problems,
    method: err.method,
    path: err.path,
    attempts: res.attempts,
    retryAfterSeconds: after === undefined ? undefined : Math.ceil(after / 1000),
  });
}

/** A typed query as wire values (its fields are strings, numbers and booleans, typed per endpoint). */
function wireQuery(query: object | undefined): Record<string, QueryValue> | undefined {
  if (!query) return undefined;
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
