// The shape every endpoint handler has. Routes are registered from the contract's catalog: for
// each catalog entry the app looks up `handlers[entry.id]`; a catalog entry without a handler is
// a startup error, so nothing in the catalog can be silently unserved.
//
// Registration: each file in src/server/handlers/ exports `export const handlers: HandlerMap`
// (keys are catalog endpoint ids). app.ts imports every such map and merges them; a key defined
// twice is a startup error too.
//
// Tables and seed data: a part of the service that needs its own tables exports a `ServerModule`
// (component name, ordered migrations, optional idempotent seed). Each component has its own
// version row in `schema_version`, so parts migrate independently. See db/migrations.ts.
import type { Context } from 'hono';
import type { Database } from 'better-sqlite3';
import type { CommitWatch } from './db/commit-watch.js';
import type { Problem as ContractProblem } from '../contract/common.js';
import type { ErrorCode, ErrorDetails } from '../contract/errors.js';
import type { ParsedBodyOf, QueryOf, ResponseOf } from '../contract/catalog.js';
import type { EndpointId, ParamsOf, routes } from '../contract/routes.js';
import type { ArtistDirectory } from './artists/directory.js';

export type UserKind = 'label' | 'artist';

/** The authenticated caller. Every owned row carries `user_id`; another user's row is a 404. */
export interface AuthUser {
  id: number;
  kind: UserKind;
  name: string;
  email: string;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  /** What an operator should see without asking for details (files the service removed); info when absent. */
  notice?(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A sandbox that reviews submitted releases by itself, `delayMs` after submit. */
export interface SandboxAutoReview {
  /** approve; reject (reason code sandbox_auto_reject, with a note); live = approve, deliver, go live. */
  outcome: 'approve' | 'reject' | 'live';
  delayMs: number;
}

/** How webhooks are sent (webhooks/settings.ts has the defaults). */
export interface WebhookSettings {
  /** After this long since the event, a delivery not yet made fails for good (default 3 days). */
  retryHorizonMs: number;
  /** One attempt's whole exchange (default 10 s). */
  timeoutMs: number;
  /** Which addresses URLs may resolve to: public only (a team service), loopback too (a sandbox), or any. */
  addresses: 'public' | 'loopback' | 'any';
}

/** What a handler is given besides its request: shared, long-lived dependencies. */
export interface ServerDeps {
  db: Database;
  /** Root of everything the service stores on disk (database, uploads, secrets). */
  dataDir: string;
  /** true when the sandbox controls under /_sandbox are enabled. */
  sandbox: boolean;
  /** The demo accounts' tokens are accepted (StartServerOptions.demoAccounts); absent means yes. */
  demoAccounts?: boolean;
  /** Sandbox only: review submitted releases without anyone calling the controls. */
  sandboxAutoReview?: SandboxAutoReview;
  /** The clock. Tests never depend on it, but handlers read time only through it. */
  now(): Date;
  log: Logger;
  /** Signs upload addresses (see uploads/sign.ts); kept in the database, so it survives restarts. */
  uploadSecret: Buffer;
  /** The artist platforms' profiles (artists/directory.ts): the seeded one unless startServer is given another. */
  artists: ArtistDirectory;
  /** Reads kept until the next commit of any process (db/commit-watch.ts); absent: read every time. */
  commits?: CommitWatch;
  /** Absent: the defaults for the kind of service (webhooks/settings.ts). */
  webhooks?: WebhookSettings;
  /** How long an unattached upload, or an upload in parts that stopped moving, is kept (uploads/retention.ts); absent: the default. */
  uploadExpiryMs?: number;
}

/** One request as a route's code sees it: authenticated, and parsed by the route's schemas. */
export interface RequestInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  user: AuthUser;
  requestId: string;
  /** Where the service is reachable, without a trailing slash (e.g. http://127.0.0.1:4000). */
  baseUrl: string;
  /** The Hono context, for the rare handler that needs headers or the raw request. */
  raw: Context;
  /**
   * Takes `count` more requests from the caller's rate-limit budget (a batch's other items): 0
   * when allowed (or limiting is off), else the seconds to wait (see RateLimiter.takeMore).
   */
  spendMore(count: number): number;
  /**
   * For an async handler of a mutation: runs `write` in one IMMEDIATE transaction and, when the
   * request carries an Idempotency-Key, saves `write`'s result as the key's answer in that same
   * transaction (http/idempotency.ts says why). The handler returns what this returns; work after
   * it (removing files) must not fail the request, as its answer is already kept. Once per request.
   */
  commit<T>(write: () => T): Committed<T>;
}

/**
 * An answer saved with its write (RequestInput.commit). A mutation's handler is either
 * synchronous (app.ts runs it and saves its answer in one transaction) or returns one of these:
 * an async handler that wrote without commit() does not type-check. Made only by app.ts.
 */
export class Committed<T> {
  readonly #value: T;
  private constructor(value: T) {
    this.#value = value;
  }
  /** app.ts only: the result of RequestInput.commit. */
  static of<T>(value: T): Committed<T> {
    return new Committed(value);
  }
  get value(): T {
    return this.#value;
  }
}

/** The input of a catalog endpoint's handler, typed from its catalog entry (zod outputs). */
export type HandlerInput<Id extends EndpointId> = RequestInput<ParamsOf<Id>, QueryOf<Id>, ParsedBodyOf<Id>>;

/**
 * What a handler may return: a read, the body, now or later; a mutation, the body now (its write
 * and its answer then share app.ts's transaction) or, when it has async work to do first, the
 * body as RequestInput.commit returned it (its write and its answer share commit's transaction).
 */
export type HandlerResult<Id extends EndpointId> = [(typeof routes)[Id]['method']] extends ['GET']
  ? ResponseOf<Id> | Promise<ResponseOf<Id>>
  : ResponseOf<Id> | Committed<ResponseOf<Id>> | Promise<Committed<ResponseOf<Id>>>;

/**
 * A catalog endpoint's handler: returns the response body, whose type the catalog fixes; the
 * status comes from the catalog entry too (a handler that must answer otherwise throws a
 * ServiceError).
 */
export type Handler<Id extends EndpointId> = (input: HandlerInput<Id>, deps: ServerDeps) => HandlerResult<Id>;

/** Handlers by endpoint id; each is checked against its own catalog entry. */
export type HandlerMap = { readonly [Id in EndpointId]?: Handler<Id> };

/**
 * What app.ts runs for a route, its input types erased (see `eraseInputTypes` in app.ts).
 * Returning `undefined` means an empty body.
 */
export type RouteHandler = (input: RequestInput<unknown, unknown, unknown>, deps: ServerDeps) => unknown;

/**
 * One problem found by a check (submit checks, code validation): the contract's Problem, with
 * the path the service always sets made required.
 */
export type Problem = ContractProblem & { path: string };

export interface ServiceErrorOptions {
  /** Field path → messages; only for 422 body validation. */
  fields?: Record<string, string[]>;
  /** Only for submit (`submit_blocked`). */
  problems?: Problem[];
  /** Extra response headers (e.g. Retry-After, Allow). */
  headers?: Record<string, string>;
  /** The existing resource the error is about (409 catalog_number_taken). */
  details?: ErrorDetails;
}

/** Thrown by handlers and middleware; rendered as the one error body of the wire decisions. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Record<string, string[]> | undefined;
  readonly problems: Problem[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly details: ErrorDetails | undefined;

  constructor(status: number, code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.problems = options.problems;
    this.headers = options.headers;
    this.details = options.details;
  }
}

export const notFound = (what = 'resource'): ServiceError => new ServiceError(404, 'not_found', `${what} not found`);

/** The 422 for bad fields: every message keyed by path, the first one (and a count) in words. */
export function validationFailed(fields: Record<string, string[]>): ServiceError {
  const paths = Object.keys(fields);
  const first = paths[0];
  const more = paths.length > 1 ? ` (and ${paths.length - 1} more)` : '';
  const message = first === undefined ? 'invalid request body' : `invalid request body: ${first}: ${fields[first]![0]}${more}`;
  return new ServiceError(422, 'validation_failed', message, { fields });
}

/** A migration runs inside a transaction; it must only use SQL that SQLite can roll back. */
export interface Migration {
  name: string;
  up(db: Database): void;
}

export interface ServerModule {
  /** Row key in schema_version, e.g. 'core', 'artists'. */
  component: string;
  /** Applied in order; version N means the first N have run. Never reorder or edit old ones. */
  migrations: Migration[];
  /**
   * Seed data, run at every start after migrations. Must be idempotent and safe when two
   * processes run it at the same moment (INSERT OR IGNORE, inside the given transaction).
   */
  seed?(db: Database, deps: { now(): Date }): void;
}
