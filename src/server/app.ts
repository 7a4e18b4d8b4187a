// The Hono application: every route of the contract's catalog, registered from the catalog with
// the handler of the same id, plus the upload address and (in a sandbox) /_sandbox controls.
// Every request passes the same steps: request id → rate limit → auth → body → idempotency →
// validation → handler; every error leaves as the one error body.
//
// Routes are registered from the plain route data; a route's schemas (path, query, body) are
// built on its first request, from the contract's tables of queries and bodies, so that a service
// started for one command does not build zod schemas for the routes it will not serve (the
// embedded sandbox's first run: docs/startup.md). The contract's answer schemas are never loaded.
import { Hono, type Context } from 'hono';
import type * as z from 'zod';
import {
  acceptsIdempotencyKey,
  endpointIds,
  pathIdsOf,
  routes,
  sandboxEndpointIds,
  sandboxRoutes,
  type EndpointId,
  type HttpMethod,
  type Route,
} from '../contract/routes.js';
import { Committed, ServiceError, notFound, type Handler, type HandlerMap, type RouteHandler, type ServerDeps } from './handler.js';
import { authenticate } from './http/auth.js';
import { jsonAnswer, taggedAnswer, type Answer } from './http/answer.js';
import type { AppEnv } from './http/env.js';
import { errorResponse } from './http/errors.js';
import { KeyTakenOver, answerOfTakenKey, beginIdempotent, recordAnswer, releaseClaim, requestHash, withRequestId, type KeyClaim } from './http/idempotency.js';
import { RequestGate } from './http/gate.js';
import { rateLimited, type RateLimitOptions } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { bodyCutOf } from './http/slow-bodies.js';
import { JSON_BODY_LIMIT, parseBody, parseJsonBody, parseQuery, readBodyBytes } from './http/validate.js';
import { handlers as artistsHandlers } from './handlers/artists.js';
import { handlers as artworkHandlers } from './handlers/artwork.js';
import { handlers as eventsHandlers } from './handlers/events.js';
import { handlers as lookupsHandlers } from './handlers/lookups.js';
import { handlers as meHandlers } from './handlers/me.js';
import { handlers as preferencesHandlers } from './handlers/preferences.js';
import { handlers as releasesHandlers } from './handlers/releases.js';
import { handlers as submitHandlers } from './handlers/submit.js';
import { sandboxHandlers, settleDueReviews, type SandboxHandler } from './handlers/sandbox.js';
import { handlers as tracksHandlers } from './handlers/tracks.js';
import { handlers as uploadsHandlers } from './handlers/uploads.js';
import { handlers as validateHandlers } from './handlers/validate.js';
import { handlers as webhooksHandlers } from './handlers/webhooks.js';

const HANDLER_MAPS: Record<string, HandlerMap> = {
  me: meHandlers,
  releases: releasesHandlers,
  submit: submitHandlers,
  tracks: tracksHandlers,
  uploads: uploadsHandlers,
  artwork: artworkHandlers,
  validate: validateHandlers,
  preferences: preferencesHandlers,
  artists: artistsHandlers,
  lookups: lookupsHandlers,
  events: eventsHandlers,
  webhooks: webhooksHandlers,
};

/**
 * The server's one trust point between parsing and handlers. A handler is typed from its route's
 * schemas (HandlerInput<Id> from the catalog entry; a sandbox control from SandboxParams), and
 * `run` below parses params, query and body with those same schemas before calling it, so the
 * input has the handler's types; the compiler cannot follow that pairing through a loop over
 * routes, so the input types are erased here, and only here.
 */
function eraseInputTypes(handler: Handler<EndpointId> | SandboxHandler<never>): RouteHandler {
  return handler as RouteHandler;
}

/** Merges the handler maps; an id defined twice or unknown to the catalog is a startup error. */
export function mergeHandlers(maps: Record<string, HandlerMap>): Map<string, RouteHandler> {
  const merged = new Map<string, RouteHandler>();
  for (const [file, map] of Object.entries(maps)) {
    for (const [id, h] of Object.entries(map)) {
      if (merged.has(id)) throw new Error(`handler ${id} is defined twice (again in handlers/${file}.ts)`);
      if (!(id in routes)) throw new Error(`handlers/${file}.ts defines ${id}, which is not in the catalog`);
      if (h) merged.set(id, eraseInputTypes(h));
    }
  }
  return merged;
}

export interface AppOptions {
  deps: ServerDeps;
  rateLimit: RateLimitOptions | false;
  /** Where the service is reachable for this request (see http/public-url.ts), given its headers. */
  baseUrl(header: (name: string) => string | undefined): string;
  /** Token verification and budgets, when shared with the fast lane (http/fast-lane.ts). */
  gate?: RequestGate;
  /** Tests only: replace the handler maps. */
  handlerMaps?: Record<string, HandlerMap>;
}

/** What a route's request is checked with; built on the route's first request (see the top). */
interface RouteSchemas {
  pathParams: z.ZodType;
  /** An endpoint without query parameters takes none: `noQuery` refuses any name. */
  query: z.ZodObject;
  body?: z.ZodType;
  /** Whether the body may be left out (bodyMayBeLeftOut of the body schema), worked out once. */
  bodyOptional: boolean;
}

interface RouteSpec {
  method: HttpMethod;
  honoPath: string;
  /** The route's schemas once built (by its first request, through `buildSchemas`): later ones pay this one check. */
  schemas?: RouteSchemas;
  buildSchemas(): Promise<RouteSchemas>;
  status: number;
  account?: 'label' | 'artist';
  etag?: boolean;
  /** The answer is the same for every request of the process (the lookups): serialised once. */
  constant?: boolean;
}

/** Preferences of one kind of account are refused to the other, naming the endpoints to use. */
function requireAccount(kind: 'label' | 'artist', needed: 'label' | 'artist'): void {
  if (kind === needed) return;
  const message =
    needed === 'label'
      ? 'label preferences belong to label accounts; this token is an artist account: use /preferences/artist'
      : 'artist preferences belong to artist accounts; this token is a label account: use /preferences/label';
  throw new ServiceError(403, 'forbidden', message);
}

/** An answer carrying its request id (see http/request-id.ts for why it is set here). */
function toResponse(c: Context<AppEnv>, a: Answer): Response {
  c.set('requestIdSent', true);
  return new Response(a.body, { status: a.status, headers: a.headers });
}

const respond = (c: Context<AppEnv>, body: string | null, status: number, headers: Record<string, string> = {}): Response =>
  toResponse(c, jsonAnswer(c.var.requestId, body, status, headers));

const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** A kept answer, again (a replayed error names this request in its body, as X-Request-Id does). */
const replay = (c: Context<AppEnv>, kept: { status: number; body: string }): Response =>
  respond(c, kept.body === '' ? null : withRequestId(kept.status, kept.body, c.var.requestId), kept.status, { 'idempotent-replayed': 'true' });

const toText = (result: unknown): string => (result === undefined ? '' : JSON.stringify(result));

const isPromiseLike = (v: unknown): v is PromiseLike<unknown> => typeof (v as PromiseLike<unknown> | null)?.then === 'function';

/**
 * An `async` handler cannot run inside a transaction (better-sqlite3's are synchronous): it
 * writes through RequestInput.commit instead, which its type enforces for a mutation.
 */
const AsyncFunction = (async () => undefined).constructor;
const isAsync = (handler: RouteHandler): boolean => handler instanceof AsyncFunction;

/**
 * The schemas of a route, built when first asked for: path and query from the contract's
 * queries.ts, and the body, for a method that has one, from its bodies.ts (a read never builds a
 * body schema). Built once, however many requests wait for them.
 */
function lazySchemas(
  route: Route,
  bodyOf: (bodies: typeof import('../contract/bodies.js')) => z.ZodType | undefined,
  queryOf: (queries: typeof import('../contract/queries.js')) => z.ZodObject | undefined,
): () => Promise<RouteSchemas> {
  let building: Promise<RouteSchemas> | undefined;
  return () =>
    (building ??= (async () => {
      const queries = await import('../contract/queries.js');
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      const bodies = hasBody ? await import('../contract/bodies.js') : undefined;
      const query = queryOf(queries);
      const body = bodies ? bodyOf(bodies) : undefined;
      return {
        pathParams: queries.pathParamsOf(route.path),
        query: query ?? queries.noQuery,
        ...(body ? { body } : {}),
        bodyOptional: body && bodies ? bodies.bodyMayBeLeftOut(body) : true,
      };
    })());
}

export function buildApp(options: AppOptions): Hono<AppEnv> {
  const { deps } = options;
  const handlers = mergeHandlers(options.handlerMaps ?? HANDLER_MAPS);
  const app = new Hono<AppEnv>();
  const gate = options.gate ?? new RequestGate(deps.db, { demoTokens: deps.demoAccounts ?? true, rateLimit: options.rateLimit });

  app.use('*', requestId(deps.log));
  if (gate.limiter) {
    app.use('*', async (c, next) => {
      // Per token, as authentication reads it (`bearer T` and `Bearer  T` are one token, one
      // budget); requests without a valid one share their address's, so made-up tokens buy no
      // fresh budgets.
      const lookup = gate.lookUp(c.req.header('authorization'));
      if (lookup !== undefined) c.set('tokenLookup', lookup);
      const address = c.env?.incoming?.socket?.remoteAddress;
      const wait = gate.take(lookup, address);
      c.set('rateLimitMore', (count) => gate.takeMore(lookup, address, count));
      if (wait > 0) {
        throw rateLimited(wait);
      }
      await next();
    });
  }

  const allowed = new Map<string, Set<string>>();
  const register = (spec: RouteSpec, handler: RouteHandler) => {
    (allowed.get(spec.honoPath) ?? allowed.set(spec.honoPath, new Set()).get(spec.honoPath)!).add(spec.method);
    app.on(spec.method, spec.honoPath, (c) => run(c, spec, handler));
  };

  const constantBodies = new Map<RouteSpec, string>();
  const run = async (c: Context<AppEnv>, spec: RouteSpec, handler: RouteHandler): Promise<Response> => {
    const user = authenticate(c.req.header('authorization'), gate.verifier, c.var.tokenLookup);
    c.set('user', user);
    if (spec.account) requireAccount(user.kind, spec.account);
    // A constant answer (the lookups) reads no release: nothing to settle, nothing to parse.
    const known = spec.constant ? constantBodies.get(spec) : undefined;
    if (known !== undefined) return respond(c, known, spec.status);
    // Before anything reads or writes the caller's releases: reviews due by now have happened.
    if (deps.sandbox) settleDueReviews(deps, user.id);
    const schemas = spec.schemas ?? (spec.schemas = await spec.buildSchemas());
    const paramsResult = schemas.pathParams.safeParse(pathIdsOf(c.req.param()));
    if (!paramsResult.success) throw notFound();
    const query = parseQuery(schemas.query, c.req.queries());

    const hasBody = spec.method !== 'GET' && spec.method !== 'DELETE';
    const incoming = c.env?.incoming;
    const bytes = hasBody ? await readBodyBytes(c.req.raw, JSON_BODY_LIMIT, incoming && bodyCutOf(incoming)) : new Uint8Array(0);
    const idemKey = acceptsIdempotencyKey(spec) ? c.req.header('idempotency-key') : undefined;
    let claim: KeyClaim | undefined;
    if (idemKey !== undefined) {
      const url = new URL(c.req.url);
      const started = beginIdempotent(deps.db, user.id, idemKey, requestHash(spec.method, url.pathname + url.search, bytes), deps.now());
      if (started.kind === 'replay') return replay(c, started);
      claim = started.claim;
    }
    // The answer saved with the write (see RequestInput.commit and http/idempotency.ts).
    let committed: string | undefined;
    const commit = <T>(write: () => T): Committed<T> => {
      if (committed !== undefined) throw new Error(`${spec.method} ${spec.honoPath}: a request commits once`);
      const [value, text] = deps.db
        .transaction((): [T, string] => {
          const v = write();
          const t = v === undefined ? '' : JSON.stringify(v);
          if (claim) recordAnswer(deps.db, claim, spec.status, t);
          return [v, t];
        })
        .immediate();
      committed = text;
      return Committed.of(value);
    };
    let text: string;
    try {
      const body = schemas.body ? parseBody(schemas.body, parseJsonBody(bytes, c.req.header('content-type'), schemas.bodyOptional)) : undefined;
      const input = {
        params: paramsResult.data,
        query,
        body,
        user,
        requestId: c.var.requestId,
        baseUrl: options.baseUrl((name) => c.req.header(name)),
        raw: c,
        spendMore: (count: number) => c.var.rateLimitMore?.(count) ?? 0,
        commit,
      };
      if (!claim || isAsync(handler)) {
        const result = await handler(input, deps);
        if (claim && committed === undefined) throw new Error(`${spec.method} ${spec.honoPath}: an async handler of a mutation answered without commit()`);
        text = committed ?? toText(result instanceof Committed ? result.value : result);
      } else {
        // A synchronous handler and its answer in one transaction: its own transactions nest in it
        // as savepoints, so its write commits with the answer or not at all.
        const keyed = claim;
        try {
          text = deps.db
            .transaction(() => {
              const result: unknown = handler(input, deps);
              if (isPromiseLike(result)) throw new Error(`${spec.method} ${spec.honoPath}: a handler that returns a promise must be an async function`);
              if (committed !== undefined) return committed;
              const t = toText(result instanceof Committed ? result.value : result);
              recordAnswer(deps.db, keyed, spec.status, t);
              return t;
            })
            .immediate();
        } catch (e) {
          // A commit() inside was a savepoint of this transaction: rolled back with it.
          committed = undefined;
          throw e;
        }
      }
    } catch (e) {
      if (!claim) throw e;
      if (e instanceof KeyTakenOver) return replay(c, answerOfTakenKey(deps.db, claim));
      if (committed !== undefined) {
        // Work after the commit failed (removing files): the answer kept with the write stands.
        deps.log.error('request failed after its write was committed', {
          request_id: c.var.requestId,
          error: e instanceof Error ? (e.stack ?? e.message) : String(e),
        });
        text = committed;
      } else {
        // Nothing of this request was committed (its transaction rolled back): the refusal is its answer.
        const res = errorResponse(c, e);
        const errText = await res.clone().text();
        try {
          deps.db.transaction(() => recordAnswer(deps.db, claim!, res.status, errText)).immediate();
        } catch (recordError) {
          if (recordError instanceof KeyTakenOver) return replay(c, answerOfTakenKey(deps.db, claim));
          throw recordError;
        }
        return res;
      }
    } finally {
      if (claim) releaseClaim(claim);
    }
    const status = spec.status;
    if (spec.constant) constantBodies.set(spec, text);
    if (spec.etag) return toResponse(c, taggedAnswer(c.var.requestId, text, status, c.req.header('if-none-match')));
    return respond(c, text === '' ? null : text, status);
  };

  for (const id of endpointIds) {
    const route: Route = routes[id];
    const handler = handlers.get(id);
    if (!handler) throw new Error(`no handler for catalog endpoint ${id} (${route.method} ${route.path})`);
    register(
      {
        method: route.method,
        honoPath: toHonoPath(route.path),
        buildSchemas: lazySchemas(
          route,
          (b) => b.bodySchemaOf(id),
          (q) => q.querySchemaOf(id),
        ),
        status: route.status,
        ...(route.account ? { account: route.account } : {}),
        ...(route.etag ? { etag: true } : {}),
        ...(route.tag === 'lookups' ? { constant: true } : {}),
      },
      handler,
    );
  }

  if (deps.sandbox) {
    for (const id of sandboxEndpointIds) {
      const route: Route = sandboxRoutes[id];
      register(
        {
          method: route.method,
          honoPath: toHonoPath(route.path),
          buildSchemas: lazySchemas(
            route,
            (b) => b.sandboxBodySchemas[id],
            () => undefined,
          ),
          status: route.status,
        },
        eraseInputTypes(sandboxHandlers[id]),
      );
    }
  }

  // PUT itself is served beside the app, on node:http (uploads/route.ts); other methods get 405 here.
  allowed.set('/uploads/:key', new Set(['PUT']));

  // A known path with the wrong method: 405 with Allow (registered last, so it only catches misses).
  for (const [path, methods] of allowed) {
    const allow = [...methods].sort().join(', ');
    app.all(path, (c) => {
      throw new ServiceError(405, 'method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`, {
        headers: { allow },
      });
    });
  }

  app.notFound((c) => errorResponse(c, new ServiceError(404, 'not_found', `no endpoint ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => errorResponse(c, err));
  return app;
}
