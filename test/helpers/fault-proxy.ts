// A seeded, fault-injecting reverse proxy for crash- and fault-safety tests: put it between the
// CLI and the real reference service (both on 127.0.0.1) and every matching request may be
//   - dropBefore:  the client's socket is destroyed, nothing forwarded (the service never saw it);
//   - dropAfter:   forwarded, the service's whole answer read, then the client's socket destroyed
//                  without a byte of it (the service did the work, the client does not know);
//   - unavailable: answered 503 with the service's error body, nothing forwarded;
//   - delay:       held a random number of ms, then forwarded.
//
//   const proxy = await startFaultProxy({ target: server.url, seed: 7, faults: { dropAfter: 0.2, unavailable: 0.1 },
//     match: (method) => method !== 'GET' });
//   // run the CLI with RELDIST_BASE_URL = proxy.url; then read proxy.stats; finally proxy.close()
//
// Determinism: decisions come from a seeded PRNG (mulberry32), two draws per *matching* request in
// arrival order (unmatched requests draw nothing), so the same seed and the same order of matching
// requests give the same decisions. After `maxConsecutiveFaults` failing faults in a row (delay is
// not failing) the next matching request passes: a client that sends one request at a time and
// retries at least that many times always gets through. Concurrent clients share the one counter.
//
// Upload URLs: the service builds `upload_url` from its own address, so the proxy rewrites the
// target's origin to its own in every JSON response (those are buffered; nothing else is), and
// uploads (PUT /uploads/{key}) pass through the proxy and its faults too. The signature does not
// cover the host, so the rewritten URL stays valid.
//
// Expect: 100-continue is passed on, not answered here: the client is told to send its body when
// the service says so (the 100 relayed), and a final answer before it (a refusal, a part held
// already) reaches the client before a byte of the body has left, as it would without the proxy
// (RFC 9110 §10.1.1: a proxy forwards the expectation to an HTTP/1.1 server).
//
// Hooks (`onRequest` on arrival, `onAnswered` once the service's whole answer is read) may hold
// an exchange by returning a promise, and end it by resolving to 'drop': kill-run.ts uses them to
// SIGKILL the CLI at an exact request. Request bodies are streamed, never buffered.
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ErrorBody } from '../../src/contract/errors.js';
import { routes } from '../../src/contract/routes.js';

export type FaultMode = 'dropBefore' | 'dropAfter' | 'unavailable' | 'delay';
export type Decision = FaultMode | 'pass';

export interface FaultRates {
  /** Probabilities 0..1 (their sum at most 1), drawn per matching request. */
  dropBefore?: number;
  dropAfter?: number;
  unavailable?: number;
  delay?: number;
  /** Inclusive range of a delay, ms; default [5, 50]. */
  delayMs?: [number, number];
}

export interface ProxyEvent {
  /** 1-based arrival number over all requests. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The route's path template ('/releases/{releaseId}'), or the path when no route matches. */
  route: string;
  matched: boolean;
  decision: Decision;
  /** A pass imposed by maxConsecutiveFaults (the draw said otherwise). */
  forced: boolean;
}

/** What a hook may return: 'drop' destroys the client's socket and ends the exchange there. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing lets the request through
export type HookVerdict = void | 'drop';

export interface ProxyHooks {
  /** On arrival, the decision made, nothing forwarded yet; the exchange waits for the promise. */
  onRequest?: (event: ProxyEvent) => HookVerdict | Promise<HookVerdict>;
  /** The service's whole answer read, nothing sent to the client yet; the exchange waits. */
  onAnswered?: (event: ProxyEvent & { status: number }) => HookVerdict | Promise<HookVerdict>;
}

export interface FaultProxyOptions extends ProxyHooks {
  /** The service's base URL, e.g. server.url ('http://127.0.0.1:PORT'). */
  target: string;
  seed: number;
  faults: FaultRates;
  /** Which requests may get a fault (path without query); default all. */
  match?: (method: string, path: string) => boolean;
  /** Failing faults in a row before a forced pass; default 3 (the client retries 3 times). */
  maxConsecutiveFaults?: number;
  /** Retry-After of the 503, seconds; default 0. */
  retryAfterSeconds?: number;
}

export interface RouteStats {
  requests: number;
  /** Sent on to the service (it saw the request). */
  forwarded: number;
  /** The service's answer was read in full. */
  answered: number;
  byDecision: Record<Decision, number>;
}

export interface FaultProxyStats {
  requests: number;
  forwarded: number;
  answered: number;
  /** Exchanges a hook ended with 'drop'. */
  hookDrops: number;
  byDecision: Record<Decision, number>;
  /** Keyed by 'METHOD /template', e.g. 'PUT /uploads/{key}'. */
  byRoute: Record<string, RouteStats>;
  /** Every request in arrival order. */
  events: ProxyEvent[];
}

export interface FaultProxy {
  /** 'http://127.0.0.1:PORT': use it as the CLI's base URL. */
  url: string;
  /** Live counters (mutated in place). */
  readonly stats: FaultProxyStats;
  resetStats(): void;
  /** Replaces both hooks (pass {} to remove them). */
  setHooks(hooks: ProxyHooks): void;
  close(): Promise<void>;
}

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DECISIONS: Decision[] = ['dropBefore', 'dropAfter', 'unavailable', 'delay', 'pass'];
const FAILING = new Set<Decision>(['dropBefore', 'dropAfter', 'unavailable']);
// Per-connection headers: never forwarded either way (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const zeroDecisions = (): Record<Decision, number> => ({ dropBefore: 0, dropAfter: 0, unavailable: 0, delay: 0, pass: 0 });
const emptyStats = (): FaultProxyStats => ({ requests: 0, forwarded: 0, answered: 0, hookDrops: 0, byDecision: zeroDecisions(), byRoute: {}, events: [] });

// Literal segments first: '/releases/{releaseId}/tracks/upload-url' before '…/tracks/{trackId}'.
const TEMPLATES: { method: string; template: string; pattern: RegExp }[] = [...Object.values(routes), { method: 'PUT', path: '/uploads/{key}' }]
  .map((r) => ({ method: r.method, template: r.path, pattern: new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`) }))
  .sort((a, b) => a.template.split('{').length - b.template.split('{').length);

/** The route's path template for a request ('/releases/{releaseId}'), or the path itself. */
export function routeTemplate(method: string, path: string): string {
  const candidates = TEMPLATES.filter((t) => t.pattern.test(path));
  return (candidates.find((t) => t.method === method.toUpperCase()) ?? candidates[0])?.template ?? path;
}

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const targetOrigin = target.origin;
  const rates = options.faults;
  const cumulative = [rates.dropBefore ?? 0, rates.dropAfter ?? 0, rates.unavailable ?? 0, rates.delay ?? 0];
  for (let i = 1; i < cumulative.length; i++) cumulative[i]! += cumulative[i - 1]!;
  if (cumulative.some((p) => !(p >= 0)) || cumulative[3]! > 1 + 1e-9) throw new Error('fault probabilities must be 0..1 and sum to at most 1');
  const [delayMin, delayMax] = rates.delayMs ?? [5, 50];
  const maxConsecutive = options.maxConsecutiveFaults ?? 3;
  const random = mulberry32(options.seed);
  let hooks: ProxyHooks = { onRequest: options.onRequest, onAnswered: options.onAnswered };
  let stats = emptyStats();
  let seq = 0;
  let consecutiveFaults = 0;
  let proxyOrigin = '';
  // One fresh upstream connection per request: a pooled socket the service closes while idle would
  // fail a request with a fault nobody seeded.
  const agent = new Agent({ keepAlive: false });

  function decide(method: string, path: string): ProxyEvent {
    const matched = options.match ? options.match(method, path) : true;
    let decision: Decision = 'pass';
    let forced = false;
    if (matched) {
      const r = random();
      const drawn = DECISIONS[cumulative.findIndex((p) => r < p)] ?? 'pass';
      if (FAILING.has(drawn) && consecutiveFaults >= maxConsecutive) forced = true;
      else decision = drawn;
      consecutiveFaults = FAILING.has(decision) ? consecutiveFaults + 1 : 0;
    }
    const event: ProxyEvent = { seq: ++seq, method, path, route: routeTemplate(method, path), matched, decision, forced };
    return event;
  }

  function routeStats(event: ProxyEvent): RouteStats {
    const key = `${event.method} ${event.route}`;
    return (stats.byRoute[key] ??= { requests: 0, forwarded: 0, answered: 0, byDecision: zeroDecisions() });
  }

  function drop(req: IncomingMessage): void {
    req.socket.destroy();
  }

  function answerUnavailable(req: IncomingMessage, res: ServerResponse, event: ProxyEvent): void {
    const body: ErrorBody = {
      error: {
        status: 503,
        code: 'unavailable',
        message: 'the service is unavailable (injected by the test fault proxy)',
        request_id: `req_fault_${event.seq}`,
      },
    };
    const text = JSON.stringify(body);
    // A body still on its way must not be read as the next request on this connection.
    if (!req.complete) res.setHeader('connection', 'close');
    req.resume();
    res.writeHead(503, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'retry-after': String(options.retryAfterSeconds ?? 0),
    });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const path = rawUrl.split('?')[0]!;
    const event = decide(method, path);
    const rs = routeStats(event);
    stats.requests++;
    rs.requests++;
    stats.byDecision[event.decision]++;
    rs.byDecision[event.decision]++;
    stats.events.push(event);
    // Drawn now, in arrival order, whatever the decision: the sequence stays the seed's.
    const delayDraw = event.matched ? random() : 0;

    if (hooks.onRequest && (await hooks.onRequest(event)) === 'drop') {
      stats.hookDrops++;
      return drop(req);
    }
    if (event.decision === 'dropBefore') return drop(req);
    if (event.decision === 'unavailable') return answerUnavailable(req, res, event);
    if (event.decision === 'delay') await sleep(delayMin + Math.floor(delayDraw * (delayMax - delayMin + 1)));
    if (req.socket.destroyed) return;

    const upstream = httpRequest({
      agent,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method,
      path: rawUrl,
      headers: { ...forwardedHeaders(req.headers), host: target.host },
    });
    stats.forwarded++;
    rs.forwarded++;
    // The client went away: if its body was still coming, the service sees the connection break
    // too (as it would without the proxy); a complete request is left to finish and discarded.
    res.once('close', () => {
      if (!res.writableFinished && !req.complete) upstream.destroy();
    });
    upstream.on('error', () => {
      // After the answer went out the socket may already carry the client's next request.
      if (res.writableFinished) return;
      if (!res.headersSent && !req.socket.destroyed) {
        res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' });
        res.end('fault proxy: the service could not be reached\n');
      } else {
        drop(req);
      }
    });
    // The service said 100 Continue: now the client may send (it waits for this, not for us).
    if (expectsContinue) upstream.once('continue', () => res.writeContinue());
    upstream.once('response', (up) => void relay(req, res, up, event, rs));
    req.pipe(upstream);
  }

  async function relay(req: IncomingMessage, res: ServerResponse, up: IncomingMessage, event: ProxyEvent, rs: RouteStats): Promise<void> {
    const status = up.statusCode ?? 502;
    // The service's connection broke mid-answer: the client's must break too, not hang.
    up.on('error', () => {
      if (!res.writableFinished) drop(req);
    });
    const headers = forwardedHeaders(up.headers);
    // The service asked to end the connection (it refused an upload before reading its body).
    if (/\bclose\b/i.test(String(up.headers.connection ?? ''))) headers.connection = 'close';
    const rewrite = /json/i.test(String(up.headers['content-type'] ?? '')) && !up.headers['content-encoding'];
    const buffer = rewrite || event.decision === 'dropAfter' || hooks.onAnswered !== undefined;
    if (!buffer) {
      res.writeHead(status, headers);
      up.pipe(res);
      up.once('end', () => {
        stats.answered++;
        rs.answered++;
      });
      return;
    }
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of up) chunks.push(chunk as Buffer);
    } catch {
      return drop(req);
    }
    stats.answered++;
    rs.answered++;
    let body = Buffer.concat(chunks);
    if (rewrite) body = Buffer.from(body.toString('utf8').split(targetOrigin).join(proxyOrigin), 'utf8');
    if (event.decision === 'dropAfter') return drop(req);
    if (hooks.onAnswered && (await hooks.onAnswered({ ...event, status })) === 'drop') {
      stats.hookDrops++;
      return drop(req);
    }
    if (req.socket.destroyed) return;
    headers['content-length'] = String(body.length);
    res.writeHead(status, headers);
    res.end(body);
  }

  const server = createServer((req, res) => {
    res.on('error', () => {});
    handle(req, res, false).catch(() => drop(req));
  });
  // Without this listener node:http would say 100 Continue itself, before the service decides.
  server.on('checkContinue', (req, res) => {
    res.on('error', () => {});
    handle(req, res, true).catch(() => drop(req));
  });
  // A client that breaks its own connection mid-request is not an error of the proxy.
  server.on('clientError', (_err, socket: Socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  proxyOrigin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: proxyOrigin,
    get stats() {
      return stats;
    },
    resetStats() {
      stats = emptyStats();
    },
    setHooks(next) {
      hooks = { ...next };
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      });
      return closing;
    },
  };
}
