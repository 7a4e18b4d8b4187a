// What the service answers, before it becomes bytes: status, headers and body. Both lanes (the
// Hono app and the fast lane of http/fast-lane.ts) build their answers here, so the headers and
// the conditional-read rule are written once.
import { etagOf, matchesEtag } from './etag.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface Answer {
  status: number;
  /** Header names lowercase, in the order they go on the wire. */
  headers: Record<string, string>;
  body: string | null;
}

/** A JSON answer carrying its request id. */
export function jsonAnswer(requestId: string, body: string | null, status: number, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, 'x-request-id': requestId, ...headers }, body };
}

/** A read with an entity tag: 304 without a body when If-None-Match names it, else the body with its tag. */
export function taggedAnswer(requestId: string, text: string, status: number, ifNoneMatch: string | undefined): Answer {
  const tag = etagOf(text);
  if (matchesEtag(ifNoneMatch, tag)) return { status: 304, headers: { etag: tag, 'x-request-id': requestId }, body: null };
  return jsonAnswer(requestId, text, status, { etag: tag });
}
