// The hot reads answered on node:http before the Hono app, which costs about 40 µs a request
// (web Request/Response objects, routing, middleware; docs/performance.md): GET of a release, of
// the lookups, and of the releases' first page without a query string (what `release list` asks;
// the embedded sandbox's first command then loads neither the app nor zod: docs/startup.md). The
// lane takes only the plain success case (one bearer token the service knows, budget left, no
// Expect) and hands anything else to the app untouched, so every refusal keeps one
// implementation. What it answers is built by the same functions as the app's: the gate (token
// cache, budgets), the handler's body, the headers and the conditional-read rule (answer.ts), the
// error body (errors.ts) and the access log (request-id.ts). A test compares both lanes' bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routes, type EndpointId, type Route } from '../../contract/routes.js';
import type { ServerDeps } from '../handler.js';
import { lookupLists } from '../handlers/lookups.js';
import { listReleasesPage, readRelease } from '../handlers/releases.js';
import { settleDueReviews } from '../handlers/sandbox.js';
import { jsonAnswer, taggedAnswer, type Answer } from './answer.js';
import { errorAnswer } from './errors.js';
import type { RequestGate } from './gate.js';
import { logRequest, newRequestId } from './request-id.js';

/** Answers the request and returns true, or returns false having sent nothing and taken nothing. */
export type FastLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The lane serves routes that need nothing it does not do: no account kind, no query, no body.
 * A route that gains one of these leaves the lane (a startup error says so) rather than being
 * answered without it.
 */
function assertPlainRead(id: EndpointId): void {
  const e: Route = routes[id];
  // A GET has no body (the app reads none); a query shows in the route's query names.
  if (e.method !== 'GET' || e.account || e.query) throw new Error(`the fast lane cannot serve ${id}: it needs more than a plain read`);
}

/**
 * GET /releases without a query string: the handler's query is `{}`, which is what the app's
 * parse makes of no parameters since every field of the route's query is optional (a contract
 * test holds that); any query string goes to the app, which parses it. Like a plain read, no
 * account kind, and answered with its ETag.
 */
function assertListWithoutQuery(id: EndpointId): void {
  const e: Route = routes[id];
  if (e.method !== 'GET' || e.account || !e.etag) throw new Error(`the fast lane cannot serve ${id} without a query: it needs more than a plain read`);
}

/** `/releases/{releaseId}` as a pattern of an id's digits (routes.ts pathIdsOf): anything else (0, 007, encoded, too long) goes to the app. */
function idPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{\w+\}/, '([1-9]\\d{0,15})')}$`);
}

/** The Authorization header when sent exactly once; the app joins repeated ones (and refuses them). */
function soleAuthorization(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') {
      if (found !== undefined) return undefined;
      found = raw[i + 1]!;
    }
  }
  return found;
}

function send(res: ServerResponse, a: Answer, bytes: Buffer | string | null): void {
  res.statusCode = a.status;
  for (const name in a.headers) res.setHeader(name, a.headers[name]!);
  // end() with the body sets Content-Length after Date and Connection, as the app's adapter does.
  if (bytes === null) res.end();
  else res.end(bytes);
}

export function fastLane(deps: ServerDeps, gate: RequestGate): FastLane {
  // Each list made on its first request (the country names alone take ~9 ms: a command on the
  // embedded sandbox that asks for no lookup must not pay it), serialised as the app serialises a
  // handler's answer and sent as bytes, which node:http does not copy.
  const lists = new Map<string, { status: number; bytes(): Buffer }>();
  for (const [name, list] of Object.entries(lookupLists)) {
    const id = name as keyof typeof lookupLists;
    const entry = routes[id];
    assertPlainRead(id);
    let bytes: Buffer | undefined;
    lists.set(entry.path, { status: entry.status, bytes: () => (bytes ??= Buffer.from(JSON.stringify(list()))) });
  }
  assertPlainRead('getRelease');
  const release = idPattern(routes.getRelease.path);
  const releaseStatus = routes.getRelease.status;
  assertListWithoutQuery('listReleases');
  const releasesPath = routes.listReleases.path;
  const releasesStatus = routes.listReleases.status;

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    // A query string of any kind goes to the app, which checks every name (none of these takes one but the list).
    if (url.includes('?')) return false;
    const path = url;
    const list = lists.get(path);
    const releaseId = list === undefined ? release.exec(path)?.[1] : undefined;
    const releases = path === releasesPath;
    if (list === undefined && releaseId === undefined && !releases) return false;
    let lookup;
    try {
      lookup = gate.lookUp(soleAuthorization(req));
      if (lookup?.verified === undefined) return false;
      // Refused: nothing was taken (RateLimiter.take), and the app answers the 429.
      if (gate.take(lookup, req.socket.remoteAddress) > 0) return false;
    } catch {
      // The database failed the token check: the app meets the same failure and answers the 500.
      return false;
    }

    const started = performance.now();
    const id = newRequestId();
    let answer: Answer;
    let bytes: Buffer | string | null;
    if (list !== undefined) {
      answer = jsonAnswer(id, null, list.status);
      bytes = list.bytes();
    } else {
      try {
        // As the app does before anything reads the caller's releases.
        const userId = lookup.verified.user.id;
        if (deps.sandbox) settleDueReviews(deps, userId);
        answer = releases
          ? taggedAnswer(id, JSON.stringify(listReleasesPage(deps.db, userId, {})), releasesStatus, req.headers['if-none-match'])
          : taggedAnswer(id, JSON.stringify(readRelease(deps.db, userId, releaseId!)), releaseStatus, req.headers['if-none-match']);
      } catch (e) {
        answer = errorAnswer(e, { id, method: 'GET', path, log: deps.log });
      }
      bytes = answer.body;
    }
    send(res, answer, bytes);
    logRequest(deps.log, id, 'GET', path, answer.status, started);
    return true;
  };
}
