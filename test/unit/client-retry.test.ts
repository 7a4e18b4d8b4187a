// Retry and backoff: the pure policy, then the client against a tiny fault injector on
// 127.0.0.1 (returns 503/429 or drops connections on purpose; it is not a copy of our service).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  IN_PROGRESS_WAIT_MS,
  backoffDelay,
  defaultRetryPolicy,
  inProgressDelay,
  isReplayable,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from '../../src/client/retry.js';
import { createClient, ApiError, ForeignServiceError, NetworkError, type RetryInfo } from '../../src/client/index.js';
import { describeClientError } from '../../src/cli/describe-client-error.js';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

describe('retry policy', () => {
  it('grows exponentially with jitter inside [step/2, step] and is capped', () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, () => 0)).toBe(200);
    expect(backoffDelay(2, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(1, policy);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(200);
    }
  });

  it('reads Retry-After as seconds or an HTTP date, and caps it', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2025 00:00:03 GMT', now)).toBe(0);
    expect(retryDelay(0, policy, 5000)).toBe(1000);
    expect(retryDelay(0, policy, 30)).toBe(30);
  });

  it('replays idempotent methods, and POST/PATCH only with an Idempotency-Key', () => {
    expect(isReplayable('GET', {})).toBe(true);
    expect(isReplayable('PUT', {})).toBe(true);
    expect(isReplayable('DELETE', {})).toBe(true);
    expect(isReplayable('POST', {})).toBe(false);
    expect(isReplayable('PATCH', {})).toBe(false);
    expect(isReplayable('POST', { 'Idempotency-Key': 'k' })).toBe(true);
  });

  it('while a key is in progress: waits at least Retry-After, growing to 8 s, and stops at the budget, which covers the 30 s takeover', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4].map((n) => inProgressDelay(n, 0, defaultRetryPolicy, undefined, middle))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(inProgressDelay(0, 0, defaultRetryPolicy, 3000, middle)).toBe(3000);
    // What is left of the budget, then nothing.
    expect(inProgressDelay(5, IN_PROGRESS_WAIT_MS - 1500, defaultRetryPolicy, undefined, middle)).toBe(1500);
    expect(inProgressDelay(6, IN_PROGRESS_WAIT_MS, defaultRetryPolicy, undefined, middle)).toBeUndefined();
    // Asked with the longest jitter, the waits still reach past 30 s (the service's time limit) before giving up.
    let waited = 0;
    let asks = 0;
    for (
      let d = inProgressDelay(0, 0, defaultRetryPolicy, 1000, () => 1);
      d !== undefined;
      d = inProgressDelay(++asks, waited, defaultRetryPolicy, 1000, () => 1)
    )
      waited += d;
    expect(waited).toBe(IN_PROGRESS_WAIT_MS);
    expect(IN_PROGRESS_WAIT_MS).toBeGreaterThan(30_000);
    expect(asks).toBeLessThan(10);
  });
});

// The fault injector: a queue of behaviours, one per incoming request; then 200.
type Behaviour = { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number } | 'reset';
let queue: Behaviour[] = [];
const seen: { method: string; url: string; key: string | undefined; auth: string | undefined; body: string }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, key: req.headers['idempotency-key'] as string | undefined, auth: req.headers.authorization, body });
      const b = queue.shift();
      if (b === 'reset') {
        req.socket.destroy();
        return;
      }
      const status = b?.status ?? 200;
      const n = seen.length;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${n}`, ...(b?.headers ?? {}) });
        res.end(typeof b?.body === 'string' ? b.body : JSON.stringify(b?.body ?? { ok: true, n }));
      }, b?.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  queue = [];
  seen.length = 0;
});

const fast: RetryPolicy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 200 };

for (const transport of ['http', 'undici'] as const) {
  describe(`client retries over ${transport}`, () => {
    const make = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
      createClient({ baseUrl: base, token: 'rd_secret_token_1234', transport, retry: fast, ...extra });

    it('retries 503 and 502 on GET, then returns the answer', async () => {
      queue = [{ status: 503 }, { status: 502 }];
      const c = make();
      const res = await c.request({ method: 'GET', path: '/releases' });
      expect(res.status).toBe(200);
      expect(res.attempts).toBe(3);
      expect(seen).toHaveLength(3);
      await c.close();
    });

    it('retries a 500 on GET like a 503, but not on a POST without an Idempotency-Key', async () => {
      queue = [{ status: 500 }, { status: 500 }];
      const c = make();
      expect((await c.request({ method: 'GET', path: '/releases' })).attempts).toBe(3);
      queue = [{ status: 500 }];
      seen.length = 0;
      const err = await c.request({ method: 'POST', path: '/releases/validate/isrc', body: '{}' }).catch((e: any) => e);
      expect([err.status, seen.length]).toEqual([500, 1]);
      queue = [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }];
      const worn = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(describeClientError(worn)!).toMatchObject({ exitCode: 1, message: expect.stringMatching(/after 4 attempts$/) });
      await c.close();
    });

    it('tells the slow hook, once per request that waits longer than it allows, and not for quick answers', async () => {
      // Two clients, so that neither half depends on how fast a loaded machine answers: a quick
      // answer is far inside a generous limit, a held one far beyond a tight one.
      let toldPatient = 0;
      const patient = make({ onSlow: { afterMs: 5_000, notify: () => toldPatient++ } });
      await patient.request({ method: 'GET', path: '/me' });
      expect(toldPatient).toBe(0);
      await patient.close();
      let told = 0;
      const c = make({ onSlow: { afterMs: 20, notify: () => told++ } });
      queue = [{ status: 200, delayMs: 200 }];
      await c.request({ method: 'GET', path: '/me' });
      expect(told).toBe(1);
      await c.close();
    });

    it("an answer that is not the release service's is a ForeignServiceError naming what came back", async () => {
      const c = make({ checkResponses: false });
      const html = { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Welcome</title>' };
      const cases: [Behaviour, string][] = [
        [{ status: 200, ...html }, 'text/html'],
        [{ status: 404, ...html }, 'text/html'],
        [{ status: 404, body: { message: 'Not Found' } }, 'JSON of another shape'],
        [{ status: 200, body: { hello: 'world' } }, 'JSON of another shape'],
      ];
      for (const [b, answered] of cases) {
        queue = [b];
        const err = await c.call('listReleases').catch((e: any) => e);
        expect(err).toBeInstanceOf(ForeignServiceError);
        expect(describeClientError(err)).toMatchObject({ exitCode: 1, message: `${base} does not look like the release service: it answered ${answered}` });
      }
      // Our error body is the service's, whatever the status; a gateway's 5xx page is about the service behind it.
      queue = [{ status: 404, body: { error: { status: 404, code: 'not_found', message: 'release 9 not found' } } }];
      expect(await c.call('getRelease', { params: { releaseId: 9 } }).catch((e: any) => e)).toBeInstanceOf(ApiError);
      queue = [
        { status: 503, ...html },
        { status: 503, ...html },
        { status: 503, ...html },
        { status: 503, ...html },
      ];
      expect(await c.call('getMe').catch((e: any) => e)).toBeInstanceOf(ApiError);
      await c.close();
    });

    it('honours a short Retry-After on 429', async () => {
      queue = [{ status: 429, headers: { 'retry-after': '0' } }];
      const c = make();
      expect((await c.request({ method: 'GET', path: '/me' })).status).toBe(200);
      expect(seen).toHaveLength(2);
      await c.close();
    });

    it('gives up at once when Retry-After is longer than it will wait, and says so (exit 6)', async () => {
      queue = [{ status: 429, headers: { 'retry-after': '120' }, body: { error: { status: 429, code: 'rate_limited', message: 'slow down' } } }];
      const c = make();
      const err = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(seen).toHaveLength(1);
      expect(describeClientError(err)!).toMatchObject({ exitCode: 6 });
      expect(describeClientError(err)!.hint).toMatch(/120s/);
      await c.close();
    });

    it('stops after maxRetries and maps exhaustion to exit 6', async () => {
      queue = [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }];
      const c = make();
      const err = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(seen).toHaveLength(4);
      expect(err.attempts).toBe(4);
      expect(describeClientError(err)!.exitCode).toBe(6);
      await c.close();
    });

    it('does not retry a POST without an Idempotency-Key', async () => {
      queue = [{ status: 503 }];
      const c = make();
      const err = await c.request({ method: 'POST', path: '/releases/validate/isrc', body: '{}' }).catch((e: any) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err.status).toBe(503);
      expect(seen).toHaveLength(1);
      await c.close();
    });

    it('retries a keyed POST with the same key every time', async () => {
      queue = [{ status: 503 }, 'reset'];
      // This fake service answers anything, so neither bodies nor responses are checked.
      const c = make({ loadBodySchemas: async () => () => undefined, checkResponses: false });
      // @ts-expect-error an incomplete body: these schemas check nothing
      await c.call('createRelease', { body: { title: 'x' } });
      expect(seen).toHaveLength(3);
      const keys = new Set(seen.map((s) => s.key));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
      // A second logical operation gets a new key.
      // @ts-expect-error an incomplete body: these schemas check nothing
      await c.call('createRelease', { body: { title: 'y' } });
      expect(seen[3]!.key).not.toBe(seen[0]!.key);
      await c.close();
    });

    const inProgress = {
      status: 409,
      headers: { 'retry-after': '1' },
      body: { error: { status: 409, code: 'idempotency_in_progress', message: 'a request with this Idempotency-Key is still running; retry shortly' } },
    };

    it('asks again under the same key while an earlier attempt holds it (409 idempotency_in_progress), each wait told to onRetry', async () => {
      queue = [inProgress, inProgress];
      const waits: RetryInfo[] = [];
      const c = make({ loadBodySchemas: async () => () => undefined, checkResponses: false, onRetry: (w) => waits.push(w) });
      // @ts-expect-error an incomplete body: these schemas check nothing
      await c.call('createRelease', { body: { title: 'x' } });
      expect(seen).toHaveLength(3);
      expect(new Set(seen.map((s) => s.key)).size).toBe(1);
      // Not one of the ordinary retries: no attempt count, bounded by time instead.
      expect(waits.map((w) => [w.attempt, w.code])).toEqual([
        [undefined, 'idempotency_in_progress'],
        [undefined, 'idempotency_in_progress'],
      ]);
      // Retry-After (1 s) capped by this policy's longest wait.
      expect(waits.every((w) => w.delayMs === fast.maxDelayMs)).toBe(true);
      await c.close();
    });

    it('stops asking once its in-progress waits reach the budget: the 409, after its attempts, exit 6', async () => {
      queue = Array.from({ length: 10 }, () => inProgress);
      const c = make({ retry: { ...fast, inProgressWaitMs: 300 }, loadBodySchemas: async () => () => undefined, checkResponses: false });
      // @ts-expect-error an incomplete body: these schemas check nothing
      const err = await c.call('createRelease', { body: { title: 'x' } }).catch((e: unknown) => e);
      // Waits of 200 then 100 ms: three requests.
      expect(err).toMatchObject({ status: 409, code: 'idempotency_in_progress', attempts: 3 });
      expect(seen).toHaveLength(3);
      expect(describeClientError(err)).toMatchObject({
        exitCode: 6,
        message: expect.stringMatching(/after 3 attempts$/),
        hint: expect.stringContaining('still running'),
      });
      await c.close();
    });

    it('a 409 of another kind (state_conflict), or without a key, is not asked again', async () => {
      queue = [{ status: 409, body: { error: { status: 409, code: 'state_conflict', message: 'release 1 is in_review' } } }];
      const c = make({ loadBodySchemas: async () => () => undefined, checkResponses: false });
      // @ts-expect-error an incomplete body: these schemas check nothing
      expect(await c.call('createRelease', { body: { title: 'x' } }).catch((e: unknown) => e)).toMatchObject({ status: 409, code: 'state_conflict' });
      expect(seen).toHaveLength(1);
      queue = [inProgress];
      expect(await c.request({ method: 'POST', path: '/releases/validate/isrc', body: '{}' }).catch((e: unknown) => e)).toMatchObject({ status: 409 });
      expect(seen).toHaveLength(2);
      await c.close();
    });

    it('a body the caller checked (bodyChecked) is sent without loading the schemas', async () => {
      queue = [];
      const c = make({
        loadBodySchemas: async () => {
          throw new Error('the body schemas were loaded');
        },
        checkResponses: false,
      });
      await c.call('validateCodes', { body: { codes: [{ kind: 'upc', code: '036000291452' }] }, bodyChecked: true });
      expect(JSON.parse(seen.at(-1)!.body)).toEqual({ codes: [{ kind: 'upc', code: '036000291452' }] });
      await expect(c.call('validateCodes', { body: { codes: [{ kind: 'upc', code: '036000291452' }] } })).rejects.toThrow('the body schemas were loaded');
      await c.close();
    });

    it("words a network failure with the base URL, not the request's method and path", async () => {
      queue = ['reset', 'reset', 'reset', 'reset'];
      const c = make();
      const err = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(err).toBeInstanceOf(NetworkError);
      const text = describeClientError(err)!;
      expect(text.message).toMatch(new RegExp(`^no answer from ${base}: .+ after 4 attempts$`));
      expect(text.message).not.toMatch(/GET|\/me/);
      await c.close();
    });

    it('retries a connection reset on GET', async () => {
      queue = ['reset'];
      const c = make();
      expect((await c.request({ method: 'GET', path: '/me' })).status).toBe(200);
      expect(seen).toHaveLength(2);
      await c.close();
    });

    it('turns an error body into one typed ApiError with fields and request id', async () => {
      queue = [
        {
          status: 422,
          body: {
            error: {
              status: 422,
              code: 'validation_failed',
              message: 'The request is invalid',
              request_id: 'req_abc',
              fields: { 'artists.0.role': ['unknown role'] },
            },
          },
        },
      ];
      const c = make();
      const err = await c.request({ method: 'PUT', path: '/releases/1/tracks', body: '[]' }).catch((e: any) => e);
      expect(err).toMatchObject({ status: 422, code: 'validation_failed', requestId: 'req_abc', fields: { 'artists.0.role': ['unknown role'] } });
      const cli = describeClientError(err)!;
      expect(cli.exitCode).toBe(3);
      expect(cli.message).toContain('artists.0.role: unknown role');
      await c.close();
    });

    it('maps 401 to exit 4 with the login hint, 404 to exit 5', async () => {
      queue = [{ status: 401, body: { error: { status: 401, code: 'unauthorized', message: 'token missing' } } }, { status: 404 }];
      const c = make();
      const e1 = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(describeClientError(e1)!).toMatchObject({ exitCode: 4, hint: 'run `reldist auth login` or set RELDIST_TOKEN' });
      const e2 = await c.request({ method: 'GET', path: '/releases/9' }).catch((e: any) => e);
      expect(describeClientError(e2)!).toMatchObject({
        exitCode: 5,
        message: expect.stringMatching(/^the service answered 404( Not Found)? \(request req_2\)$/),
      });
      await c.close();
    });

    it('sends the bearer token, but not to an absolute upload URL when auth is off', async () => {
      const c = make();
      await c.request({ method: 'GET', path: '/me' });
      await c.request({ method: 'PUT', path: `${base}/uploads/k?sig=1`, auth: false, body: 'x' });
      expect(seen[0]!.auth).toBe('Bearer rd_secret_token_1234');
      expect(seen[1]!.auth).toBeUndefined();
      await c.close();
    });
  });
}

describe('connection refused', () => {
  it('names the base URL and is not retried', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    for (const transport of ['http', 'undici'] as const) {
      const c = createClient({ baseUrl: url, transport, retry: fast });
      const err = await c.request({ method: 'GET', path: '/me' }).catch((e: any) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(describeClientError(err)!.message).toBe(`cannot connect to ${url}: connection refused`);
      await c.close();
    }
  });
});
