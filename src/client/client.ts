// The HTTP client: endpoints by catalog id, retries, typed errors, pagination and tracing.
import { buildQuery, loadBodySchemas, loadResponseSchemas, schemaIssues, type BodySchemas, type QueryValue, type ResponseSchemas } from './catalog.js';
import { ApiError, ForeignServiceError, NetworkError, RequestValidationError, ResponseContractError, apiErrorFrom, foreignAnswer } from './errors.js';
import { buildPath, routes, type EndpointId, type ParamsOf, type Route } from '../contract/routes.js';
// Types only: erased from the build, so calling an endpoint does not load zod or the schemas.
import type { BodyOf, QueryOf, ResponseOf } from '../contract/catalog.js';
import type { PaginationMeta } from '../contract/common.js';
import {
  RETRY_STATUSES,
  defaultRetryPolicy,
  inProgressDelay,
  isReplayable,
  isRetryableNetworkCode,
  parseRetryAfter,
  retryDelay,
  sleep,
  type RetryPolicy,
} from './retry.js';
import { redactHeaders, redactText } from './redact.js';
import { TransportError, errorCode, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** 'upload': one large streamed body (node:http, which can wait for 100 Continue). */
export type Workload = 'oneshot' | 'long' | 'upload';

export interface ClientOptions {
  baseUrl: string;
  token?: string | undefined;
  /** Builds the transport for a kind of work; called at most once per kind. */
  transportFor(workload: Workload): Promise<Transport>;
  /** The kind of work this client mostly does; uploads always use 'long'. */
  workload?: Workload;
  /** Request-body schemas (default: the contract's catalog, loaded on first use). */
  loadBodySchemas?: () => Promise<BodySchemas>;
  /**
   * Parse every response of `call` with the catalog's response schema and throw on a mismatch
   * (default: on when RELDIST_CHECK_RESPONSES=1, which the test suite sets). Loads zod.
   */
  checkResponses?: boolean;
  loadResponseSchemas?: () => Promise<ResponseSchemas>;
  retry?: RetryPolicy;
  /** Receives --debug lines (already redacted). */
  trace?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  userAgent?: string;
  random?: () => number;
  /** Called once a request has waited `afterMs` for its answer: lets the CLI say it is waiting. */
  onSlow?: { afterMs: number; notify: () => void } | undefined;
  /** Called before each retry wait: lets the CLI say what is retried, why, and after how long. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Called when a logical request (its retries included) starts; the function it returns is
   * called when it ends. Lets the CLI say what was in flight when --timeout passed.
   */
  onExchange?: ((info: ExchangeInfo) => (answered: boolean) => void) | undefined;
}

/**
 * A retry about to wait: retry `attempt` (1-based) of at most `maxRetries`; both undefined for a
 * wait while an earlier attempt under the same Idempotency-Key still runs (bounded by time instead).
 */
export interface RetryInfo {
  attempt: number | undefined;
  maxRetries: number | undefined;
  delayMs: number;
  /** The status or network code, as --debug shows it. */
  reason: string;
  /** What failed: the answer's status, or the network error's code. */
  status?: number;
  code?: string;
  request: ExchangeInfo;
}

/** One logical request as onExchange sees it: the catalog endpoint when it is one (an upload's PUT is not). */
export interface ExchangeInfo {
  method: string;
  endpointId: EndpointId | undefined;
}

/** What every call may add, whatever the endpoint. */
export interface RequestOptions {
  headers?: Readonly<Record<string, string>>;
  /** Overrides the generated key (e.g. to make a re-run of a script replay safely). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * The caller built the body from its own typed values and checked what a person typed into it
   * against the contract's plain-data bounds (validate --remote's codes): it is not parsed again
   * here, which would load zod and the catalog for that alone. The service checks it all the same.
   */
  bodyChecked?: true;
}

type ParamsOption<Id extends EndpointId> = [keyof ParamsOf<Id>] extends [never] ? { params?: undefined } : { params: ParamsOf<Id> };
// biome-ignore lint/complexity/noBannedTypes: `{} extends X` asks whether every field of X is optional
type QueryOption<Id extends EndpointId> = {} extends QueryOf<Id> ? { query?: QueryOf<Id> } : { query: QueryOf<Id> };
type BodyOption<Id extends EndpointId> = [BodyOf<Id>] extends [undefined] ? { body?: undefined } : { body: BodyOf<Id> };

/** The options of `call(id, …)`: params, query and body as the catalog types them for that endpoint. */
export type CallOptions<Id extends EndpointId> = ParamsOption<Id> & QueryOption<Id> & BodyOption<Id> & RequestOptions;
/** The options argument may be left out when the endpoint needs none. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends X` asks whether every field of X is optional
export type CallArgs<Id extends EndpointId> = {} extends CallOptions<Id> ? [options?: CallOptions<Id>] : [options: CallOptions<Id>];

/** Endpoints that answer with `{data, meta}` pages. */
export type PagedId = { [Id in EndpointId]: ResponseOf<Id> extends { data: readonly unknown[]; meta: PaginationMeta } ? Id : never }[EndpointId];
/** One item of a paged endpoint's `data`. */
export type PageItemOf<Id extends PagedId> = ResponseOf<Id>['data'][number];

type OnPage = (page: number, totalPages: number) => void;

/** Any endpoint's options, as `call` uses them once the types have been checked at the call site. */
interface WireCallOptions extends RequestOptions {
  params?: Readonly<Record<string, string | number>> | undefined;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  body?: unknown;
}

export interface RawRequest {
  method: string;
  /** A path relative to the base URL (may carry a query string) or an absolute URL. */
  path: string;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  body?: TransportRequest['body'];
  /** Send the bearer token (not to upload URLs, which are signed). */
  auth?: boolean;
  /**
   * An endpoint of the catalog (set by `call`): an answer that is not the release service's
   * (HTML, JSON of another shape) is a ForeignServiceError naming the base URL.
   */
  endpoint?: { paginated: boolean; id?: EndpointId };
  workload?: Workload;
  signal?: AbortSignal | undefined;
  /** See TransportRequest.expectContinue. */
  expectContinue?: boolean;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON when the body is JSON, else undefined. */
  data: unknown;
  attempts: number;
  /** An earlier attempt reached the service but its answer was lost (the work may be done). */
  answerLost?: boolean;
}

/** Methods that change something: each call carries an Idempotency-Key, reused by its retries. */
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const MAX_PAGES = 10_000;
const TRACE_BODY_LIMIT = 4000;

export class ApiClient {
  readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly opts: ClientOptions;
  private readonly transports = new Map<Workload, Promise<Transport>>();
  private bodySchemas: Promise<BodySchemas> | undefined;
  private responseSchemas: Promise<ResponseSchemas> | undefined;
  private readonly checkResponses: boolean;

  constructor(opts: ClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token;
    this.checkResponses = opts.checkResponses ?? globalThis.process?.env.RELDIST_CHECK_RESPONSES === '1';
  }

  /** Calls an endpoint of the contract's catalog; returns its response body, typed by the catalog. */
  call<Id extends EndpointId>(endpointId: Id, ...options: CallArgs<Id>): Promise<ResponseOf<Id>>;
  // The overload checks params, query and body per endpoint; the implementation sees them as wire values.
  call<Id extends EndpointId>(endpointId: Id, options?: WireCallOptions): Promise<ResponseOf<Id>> {
    return this.callEndpoint(endpointId, options ?? {});
  }

  private async callEndpoint<Id extends EndpointId>(endpointId: Id, options: WireCallOptions): Promise<ResponseOf<Id>> {
    const route: Route | undefined = routes[endpointId];
    if (!route) throw new Error(`unknown endpoint ${endpointId}`);
    // Strict on what we send: the user hears of a bad field from us, with its path.
    if (options.body !== undefined && !options.bodyChecked) {
      const schema = (await this.loadBodySchemas())(endpointId);
      const issues = schema ? schemaIssues(schema, options.body) : [];
      if (issues.length > 0) throw new RequestValidationError(endpointId, issues);
    }
    const headers: Record<string, string> = { ...options.headers };
    // One key per logical operation, reused by every retry of it: the service replays the first
    // answer instead of doing the work twice (it honours a key on every mutation).
    if ((route.idempotencyKey || MUTATIONS.has(route.method)) && !hasHeader(headers, 'idempotency-key')) {
      headers['Idempotency-Key'] = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    }
    const res = await this.request({
      method: route.method,
      path: buildPath(route.path, { ...options.params }),
      query: options.query,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      endpoint: { paginated: route.paginated === true, id: endpointId },
    });
    return this.typedResponse(endpointId, res.data);
  }

  /**
   * The client's one trust point: here, and only here, a response body gets its contract type.
   * Checking it on every call would load zod and every schema on every GET, which start-up cannot
   * afford (docs/startup.md), so the service is trusted to answer as the catalog says. With
   * `checkResponses` (RELDIST_CHECK_RESPONSES=1, set by the test suite) every response is parsed
   * with the catalog's response schema first, so any mismatch between the service, the contract
   * and what callers are typed to expect fails the tests. Lenient either way: the body is
   * returned as sent, unknown fields kept. Public only for the client's own modules
   * (conditional.ts), which send through `send` and type their bodies here.
   */
  async typedResponse<Id extends EndpointId>(endpointId: Id, data: unknown): Promise<ResponseOf<Id>> {
    if (this.checkResponses) {
      this.responseSchemas ??= (this.opts.loadResponseSchemas ?? loadResponseSchemas)();
      const issues = schemaIssues((await this.responseSchemas)(endpointId), data);
      if (issues.length > 0) throw new ResponseContractError(endpointId, issues);
    }
    return data as ResponseOf<Id>;
  }

  /** Every item of a paged list endpoint (`{data, meta:{total_pages}}`), page after page. */
  paginate<Id extends PagedId>(endpointId: Id, options?: CallOptions<Id>, onPage?: OnPage): AsyncGenerator<PageItemOf<Id>>;
  async *paginate<Id extends PagedId>(endpointId: Id, options: WireCallOptions = {}, onPage?: OnPage): AsyncGenerator<PageItemOf<Id>> {
    for await (const items of this.walkPages(endpointId, options, onPage, 0)) yield* items;
  }

  /**
   * The pages of a paged list endpoint, in order, each page's items at once. With `ahead`, that
   * many of the following pages are asked for before a page is handed over, so the service works
   * on the next ones while the caller prints this one (the walk stays in page order).
   */
  pages<Id extends PagedId>(endpointId: Id, options?: CallOptions<Id>, walk?: { onPage?: OnPage; ahead?: number }): AsyncGenerator<PageItemOf<Id>[]>;
  pages<Id extends PagedId>(endpointId: Id, options: WireCallOptions = {}, walk: { onPage?: OnPage; ahead?: number } = {}): AsyncGenerator<PageItemOf<Id>[]> {
    return this.walkPages(endpointId, options, walk.onPage, walk.ahead ?? 0);
  }

  private async *walkPages<Id extends PagedId>(
    endpointId: Id,
    options: WireCallOptions,
    onPage: OnPage | undefined,
    ahead: number,
  ): AsyncGenerator<PageItemOf<Id>[]> {
    const fetchPage = (page: number) => this.callEndpoint(endpointId, { ...options, query: { ...options.query, page } });
    const asked = new Map<number, Promise<ResponseOf<Id>>>();
    let page = Number(options.query?.page ?? 1);
    let res = await fetchPage(page);
    try {
      for (let n = 0; n < MAX_PAGES; n++) {
        const totalPages = res.meta.total_pages;
        onPage?.(page, totalPages);
        for (let next = page + 1; next <= Math.min(totalPages, page + ahead); next++) {
          if (asked.has(next)) continue;
          const pending = fetchPage(next);
          // Handled when its turn comes; a walk stopped early must not leave it unhandled.
          pending.catch(() => undefined);
          asked.set(next, pending);
        }
        yield res.data;
        if (page >= totalPages || res.data.length === 0) return;
        page++;
        const pending = asked.get(page);
        asked.delete(page);
        res = await (pending ?? fetchPage(page));
      }
    } finally {
      asked.clear();
    }
  }

  async all<Id extends PagedId>(endpointId: Id, options?: CallOptions<Id>, onPage?: OnPage): Promise<PageItemOf<Id>[]> {
    const out: PageItemOf<Id>[] = [];
    for await (const item of this.paginate(endpointId, options, onPage)) out.push(item);
    return out;
  }

  /** Sends one request (with retries) and turns non-2xx into ApiError. */
  async request(req: RawRequest): Promise<RawResponse> {
    const res = await this.send(req);
    if (req.endpoint) this.assertFromService(req, res);
    // A DELETE whose first answer was lost and whose retry finds nothing: the first one did it.
    if (res.status === 404 && res.answerLost && req.method.toUpperCase() === 'DELETE') {
      return { ...res, status: 200, statusText: 'OK', data: { message: 'deleted' } };
    }
    if (res.status < 200 || res.status >= 300) {
      const err = apiErrorFrom(res.status, res.statusText, res.text, res.headers, { method: req.method.toUpperCase(), path: pathOnly(req.path) });
      const after = parseRetryAfter(res.headers['retry-after']);
      if (res.attempts > 1 || after !== undefined) {
        throw new ApiError({ ...errInit(err), attempts: res.attempts, retryAfterSeconds: after === undefined ? undefined : Math.ceil(after / 1000) });
      }
      throw err;
    }
    return res;
  }

  private assertFromService(req: RawRequest, res: RawResponse): void {
    let answered = foreignAnswer(res.status, res.headers, res.data, res.text);
    const ok = res.status >= 200 && res.status < 300;
    // A page without its meta block is another API's answer, not a shorter page.
    if (!answered && ok && req.endpoint?.paginated && !(isObject(res.data) && isObject(res.data.meta))) {
      answered = 'JSON of another shape';
    }
    if (answered)
      throw new ForeignServiceError({ baseUrl: this.baseUrl, status: res.status, answered, method: req.method.toUpperCase(), path: pathOnly(req.path) });
  }

  /** Like request() but returns non-2xx responses instead of throwing (for `reldist api`). */
  async send(req: RawRequest): Promise<RawResponse> {
    const ended = this.opts.onExchange?.({ method: req.method.toUpperCase(), endpointId: req.endpoint?.id });
    let answered = false;
    try {
      const res = await this.sendWithRetries(req);
      answered = true;
      return res;
    } finally {
      ended?.(answered);
    }
  }

  private async sendWithRetries(req: RawRequest): Promise<RawResponse> {
    const method = req.method.toUpperCase();
    const url = this.resolve(req.path, req.query);
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent ?? 'reldist',
      accept: 'application/json',
      ...lowerKeys(req.headers ?? {}),
    };
    if (req.auth !== false && this.token && !headers.authorization) headers.authorization = `Bearer ${this.token}`;
    if (typeof req.body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
    const policy = this.opts.retry ?? defaultRetryPolicy;
    const replayable = isReplayable(method, headers);
    const transport = await this.transport(req.workload ?? this.opts.workload ?? 'oneshot');
    const signal = requestSignal(req.signal, this.opts.signal);
    const exchange: ExchangeInfo = { method, endpointId: req.endpoint?.id };

    let answerLost = false;
    // Retries of 429, 5xx and resets (bounded by maxRetries) and asks while the key is in
    // progress (bounded by inProgressWaitMs), counted apart; `attempt` counts every request.
    let retries = 0;
    let inProgressAsks = 0;
    let inProgressWaitedMs = 0;
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      this.traceRequest(method, url, headers, req.body);
      let res: TransportResponse;
      const slow = this.opts.onSlow;
      const slowTimer = slow ? setTimeout(slow.notify, slow.afterMs) : undefined;
      try {
        res = await transport.send({ method, url, headers, body: req.body, signal, ...(req.expectContinue ? { expectContinue: true } : {}) });
      } catch (err) {
        clearTimeout(slowTimer);
        if (signal?.aborted) throw signal.reason;
        const code = errorCode(err) ?? 'ENETWORK';
        this.trace(`! ${method} ${url.href}: ${code} ${(err as Error).message ?? ''}`);
        if (replayable && isRetryableNetworkCode(code) && retries < policy.maxRetries) {
          // Reset or timed out (not refused): the request may have been done, its answer lost.
          answerLost = true;
          await this.wait(
            { retry: ++retries, policy, reason: code, code, request: exchange },
            retryDelay(retries - 1, policy, undefined, this.opts.random),
            signal,
          );
          continue;
        }
        throw this.networkError(err, code, method, url, attempt);
      }
      const text = await res.text().finally(() => clearTimeout(slowTimer));
      this.traceResponse(res, text, Date.now() - started);
      if (RETRY_STATUSES.has(res.status) && replayable && retries < policy.maxRetries) {
        const after = parseRetryAfter(res.headers['retry-after']);
        // A server asking for a longer pause than we are willing to wait: give up now, say so.
        if (!(after !== undefined && after > policy.maxDelayMs)) {
          // A gateway's 502/504 may come after the service did the work.
          if (res.status === 502 || res.status === 504) answerLost = true;
          await this.wait(
            { retry: ++retries, policy, reason: `${res.status}`, status: res.status, request: exchange },
            retryDelay(retries - 1, policy, after, this.opts.random),
            signal,
          );
          continue;
        }
      }
      // An earlier attempt under this key still runs (or its process died, and the service will
      // take the key over): ask again under the same key, within the in-progress budget. Its
      // answer is then the key's one answer, whoever did the work.
      if (res.status === 409 && headers['idempotency-key'] !== undefined && errorCodeOf(res.headers, text) === 'idempotency_in_progress') {
        const delayMs = inProgressDelay(inProgressAsks, inProgressWaitedMs, policy, parseRetryAfter(res.headers['retry-after']), this.opts.random);
        if (delayMs !== undefined) {
          inProgressAsks++;
          inProgressWaitedMs += delayMs;
          await this.wait({ policy, reason: '409 idempotency_in_progress', status: 409, code: 'idempotency_in_progress', request: exchange }, delayMs, signal);
          continue;
        }
      }
      return {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        text,
        data: parseJson(res.headers, text),
        attempts: attempt,
        ...(answerLost ? { answerLost } : {}),
      };
    }
  }

  async close(): Promise<void> {
    const all = [...this.transports.values()];
    this.transports.clear();
    await Promise.all(all.map(async (t) => (await t).close()));
  }

  /** The transport for long work, shared with the upload helper. */
  transport(workload: Workload): Promise<Transport> {
    let t = this.transports.get(workload);
    if (!t) {
      t = this.opts.transportFor(workload);
      this.transports.set(workload, t);
    }
    return t;
  }

  resolve(path: string, query?: Readonly<Record<string, QueryValue>>): URL {
    const qs = buildQuery(query);
    if (/^https?:\/\//i.test(path)) {
      const u = new URL(path);
      if (qs) for (const [k, v] of new URLSearchParams(qs.slice(1))) u.searchParams.append(k, v);
      return u;
    }
    const rel = path.startsWith('/') ? path : `/${path}`;
    const u = new URL(this.baseUrl + rel);
    if (qs) for (const [k, v] of new URLSearchParams(qs.slice(1))) u.searchParams.append(k, v);
    return u;
  }

  private loadBodySchemas(): Promise<BodySchemas> {
    this.bodySchemas ??= (this.opts.loadBodySchemas ?? loadBodySchemas)();
    return this.bodySchemas;
  }

  /**
   * A wait that a caller makes itself (an upload whose bytes another client is sending): told
   * through onRetry like the client's own retries, so that every wait is said.
   */
  reportWait(info: Omit<RetryInfo, 'attempt' | 'maxRetries'>): void {
    this.trace(`! ask again after ${info.reason} in ${info.delayMs} ms`);
    this.opts.onRetry?.({ attempt: undefined, maxRetries: undefined, ...info });
  }

  /** `failed.retry`: the ordinary retry this wait is for (1-based); absent for a wait while a key is in progress. */
  private async wait(
    failed: { retry?: number; policy: RetryPolicy; reason: string; status?: number; code?: string; request: ExchangeInfo },
    delayMs: number,
    signal: AbortSignal | undefined,
  ) {
    const { retry, policy, reason, status, code, request } = failed;
    this.trace(`! ${retry !== undefined ? `retry ${retry}/${policy.maxRetries}` : 'ask again'} after ${reason} in ${delayMs} ms`);
    this.opts.onRetry?.({
      ...(retry !== undefined ? { attempt: retry, maxRetries: policy.maxRetries } : { attempt: undefined, maxRetries: undefined }),
      delayMs,
      reason,
      ...(status !== undefined ? { status } : {}),
      ...(code !== undefined ? { code } : {}),
      request,
    });
    await sleep(delayMs, signal);
  }

  private networkError(err: unknown, code: string, method: string, url: URL, attempts: number): NetworkError {
    const reason =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : err instanceof TransportError
          ? err.message
          : `${code}${(err as Error)?.message ? ` (${(err as Error).message})` : ''}`;
    const otherHost = url.origin !== new URL(this.baseUrl).origin ? url.origin : undefined;
    return new NetworkError(`${method} ${url.origin}${url.pathname}: ${reason}`, {
      code,
      baseUrl: this.baseUrl,
      attempts,
      cause: err,
      reason,
      ...(otherHost ? { otherHost } : {}),
    });
  }

  private trace(line: string): void {
    if (this.opts.trace) this.opts.trace(redactText(line, [this.token]));
  }

  private traceRequest(method: string, url: URL, headers: Record<string, string>, body: TransportRequest['body']) {
    if (!this.opts.trace) return;
    this.trace(`> ${method} ${url.href}`);
    for (const [k, v] of Object.entries(redactHeaders(headers))) this.trace(`> ${k}: ${v}`);
    if (typeof body === 'string') this.trace(`> ${truncate(body)}`);
    else if (body) this.trace('> [streamed body]');
  }

  private traceResponse(res: TransportResponse, text: string, ms: number) {
    if (!this.opts.trace) return;
    this.trace(`< ${res.status} ${res.statusText} (${ms} ms)`.replace(/\s+\(/, ' ('));
    for (const [k, v] of Object.entries(redactHeaders(res.headers))) this.trace(`< ${k}: ${v}`);
    if (text) this.trace(`< ${truncate(text)}`);
  }
}

/** Reads a list response: `{data, meta}` pages, or a plain array (one page). */
export function pageOf(res: unknown): { items: unknown[]; totalPages: number } {
  if (Array.isArray(res)) return { items: res, totalPages: 1 };
  if (isObject(res) && Array.isArray(res.data)) {
    const total = isObject(res.meta) && typeof res.meta.total_pages === 'number' ? res.meta.total_pages : 1;
    return { items: res.data, totalPages: total };
  }
  return { items: [res], totalPages: 1 };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(headers: Record<string, string>, text: string): unknown {
  if (!text) return undefined;
  const ct = headers['content-type'] ?? '';
  if (!/json/i.test(ct) && !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `error.code` of an error body, read without the contract's schemas (a plain GET never loads zod). */
function errorCodeOf(headers: Record<string, string>, text: string): string | undefined {
  const data = parseJson(headers, text);
  const error = isObject(data) ? data.error : undefined;
  return isObject(error) && typeof error.code === 'string' ? error.code : undefined;
}

function truncate(s: string): string {
  return s.length > TRACE_BODY_LIMIT ? `${s.slice(0, TRACE_BODY_LIMIT)}… [${s.length - TRACE_BODY_LIMIT} more bytes]` : s;
}

function lowerKeys(h: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function hasHeader(h: Record<string, string>, name: string): boolean {
  return Object.keys(h).some((k) => k.toLowerCase() === name);
}

function pathOnly(path: string): string {
  try {
    return /^https?:/i.test(path) ? new URL(path).pathname : path.split('?')[0]!;
  } catch {
    return path;
  }
}

function errInit(e: ApiError) {
  return {
    status: e.status,
    code: e.code,
    message: e.message,
    requestId: e.requestId,
    fields: e.fields,
    problems: e.problems,
    details: e.details,
    method: e.method,
    path: e.path,
  };
}

/**
 * A signal of this request's own, aborted with either given one. Transports add an abort listener
 * per request; on the client's one shared signal, a few concurrent requests (and listeners that
 * undici removes only once a body is read) would pass Node's 10 and print a
 * MaxListenersExceededWarning. AbortSignal.any adds no listener to its sources.
 */
function requestSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  const given = [a, b].filter((s): s is AbortSignal => s !== undefined);
  return given.length === 0 ? undefined : AbortSignal.any(given);
}
