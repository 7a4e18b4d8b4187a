// The fault-injecting proxy of test/helpers, against a tiny node:http target that records what
// reached it: each fault does what it says, decisions follow the seed, and bodies pass intact.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/contract/errors.js';
import { startFaultProxy, mulberry32, routeTemplate, type FaultProxy, type FaultProxyOptions } from '../helpers/fault-proxy.js';

interface Seen {
  method: string;
  url: string;
  bytes: number;
  sha256: string;
  finished: boolean;
}

let target: Server;
let targetUrl = '';
const seen: Seen[] = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    const record: Seen = { method: req.method ?? '', url: req.url ?? '', bytes: 0, sha256: '', finished: false };
    seen.push(record);
    const hash = createHash('sha256');
    req.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => {
      record.sha256 = hash.digest('hex');
      res.once('finish', () => (record.finished = true));
      const path = (req.url ?? '').split('?')[0];
      if (path === '/ticket') {
        // Like the service's upload-url answer: an absolute URL built from its own address.
        const body = JSON.stringify({ key: 'upl_1', upload_url: `${targetUrl}/uploads/upl_1?expires=1&signature=ab` });
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`${record.method} ${record.url} ${record.bytes} ${record.sha256}`);
      };
      if (path === '/slow') setTimeout(answer, 50);
      else answer();
    });
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise<void>((r) => target.close(() => r()));
});

const proxies: FaultProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  seen.length = 0;
});

async function proxy(options: Partial<FaultProxyOptions>): Promise<FaultProxy> {
  const p = await startFaultProxy({ target: targetUrl, seed: 1, faults: {}, ...options });
  proxies.push(p);
  return p;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request through node:http; rejects with the socket error (ECONNRESET, socket hang up…). */
function send(base: string, method: string, path: string, body?: Buffer | Readable, options: { agent?: Agent; length?: number } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
    else if (options.length !== undefined) headers['content-length'] = String(options.length);
    const req = request(new URL(path, base), { method, headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

const outcome = (p: Promise<Reply>): Promise<string> =>
  p.then(
    (r) => String(r.status),
    () => 'error',
  );

describe('fault proxy', () => {
  it('forwards a request and its answer unchanged when no fault is drawn', async () => {
    const p = await proxy({});
    const r = await send(p.url, 'POST', '/releases?x=1', Buffer.from('hello'));
    expect(r.status).toBe(200);
    expect(r.text).toBe(`POST /releases?x=1 5 ${createHash('sha256').update('hello').digest('hex')}`);
    expect(p.stats).toMatchObject({ requests: 1, forwarded: 1, answered: 1, byDecision: { pass: 1 } });
    expect(p.stats.byRoute['POST /releases']).toMatchObject({ requests: 1, forwarded: 1 });
  });

  it('dropBefore: the target sees nothing and the client loses its connection', async () => {
    const p = await proxy({ faults: { dropBefore: 1 }, maxConsecutiveFaults: 10 });
    const err = await send(p.url, 'POST', '/releases', Buffer.from('{}')).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(err?.code).toMatch(/^(ECONNRESET|EPIPE)$/);
    expect(seen).toHaveLength(0);
    expect(p.stats).toMatchObject({ requests: 1, forwarded: 0, byDecision: { dropBefore: 1 } });
  });

  it('dropAfter: the target received and answered in full, the client gets an error', async () => {
    const p = await proxy({ faults: { dropAfter: 1 }, maxConsecutiveFaults: 10 });
    const err = await send(p.url, 'POST', '/releases', Buffer.from('{"a":1}')).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(err?.code).toMatch(/^(ECONNRESET|EPIPE)$/);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', bytes: 7, finished: true });
    expect(p.stats).toMatchObject({ forwarded: 1, answered: 1, byDecision: { dropAfter: 1 } });
  });

  it("unavailable: a 503 with Retry-After and the service's error body, nothing forwarded", async () => {
    const p = await proxy({ faults: { unavailable: 1 }, maxConsecutiveFaults: 10 });
    const r = await send(p.url, 'PATCH', '/releases/12/metadata', Buffer.from('{}'));
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('0');
    const body = ErrorBody.parse(JSON.parse(r.text));
    expect(body.error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(seen).toHaveLength(0);
    expect(p.stats.byRoute['PATCH /releases/{releaseId}/metadata']?.byDecision.unavailable).toBe(1);
  });

  it('delay: holds a matching request, then forwards it', async () => {
    // Only /later is delayed: a request sent after it reaches the target first.
    const p = await proxy({ faults: { delay: 1, delayMs: [300, 300] }, match: (_m, path) => path === '/later' });
    const later = send(p.url, 'GET', '/later');
    await new Promise((r) => setTimeout(r, 20));
    const now = await send(p.url, 'GET', '/now');
    expect(now.status).toBe(200);
    expect((await later).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/now', '/later']);
    expect(p.stats.byDecision).toMatchObject({ delay: 1, pass: 1 });
  });

  it('decides the same faults in the same order for the same seed', async () => {
    const faults = { dropBefore: 0.2, dropAfter: 0.2, unavailable: 0.2, delay: 0.2, delayMs: [0, 2] as [number, number] };
    const run = async (seed: number) => {
      const p = await proxy({ seed, faults, maxConsecutiveFaults: 2 });
      const outcomes: string[] = [];
      for (let i = 0; i < 30; i++) outcomes.push(await outcome(send(p.url, 'POST', `/releases/${i}/submit`, Buffer.from('{}'))));
      return { decisions: p.stats.events.map((e) => e.decision), outcomes };
    };
    const a = await run(42);
    const b = await run(42);
    const c = await run(43);
    expect(b).toEqual(a);
    expect(c.decisions).not.toEqual(a.decisions);
    expect(new Set(a.decisions)).toEqual(new Set(['dropBefore', 'dropAfter', 'unavailable', 'delay', 'pass']));
    expect(mulberry32(42)()).toBe(mulberry32(42)());
  });

  it('match limits faults to some requests, and unmatched ones draw nothing', async () => {
    const p = await proxy({ faults: { unavailable: 1 }, maxConsecutiveFaults: 100, match: (method) => method !== 'GET' });
    const got: string[] = [];
    for (const method of ['GET', 'POST', 'GET', 'DELETE', 'GET']) got.push(await outcome(send(p.url, method, '/releases/1')));
    expect(got).toEqual(['200', '503', '200', '503', '200']);
    expect(p.stats.events.map((e) => e.matched)).toEqual([false, true, false, true, false]);
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('maxConsecutiveFaults lets a request through after that many failing faults in a row', async () => {
    const p = await proxy({ faults: { unavailable: 0.5, dropBefore: 0.5 }, maxConsecutiveFaults: 2 });
    const got: string[] = [];
    for (let i = 0; i < 9; i++) got.push(await outcome(send(p.url, 'PUT', '/uploads/upl_1')));
    expect(got).toEqual(got.map((_, i) => ((i + 1) % 3 === 0 ? '200' : got[i] === 'error' ? 'error' : '503')));
    expect(got.filter((g) => g === '200')).toHaveLength(3);
    expect(p.stats.events.filter((e) => e.forced)).toHaveLength(3);
    expect(p.stats.byRoute['PUT /uploads/{key}']?.forwarded).toBe(3);
  });

  it('streams a 5 MB body through intact, with and without a Content-Length', async () => {
    const p = await proxy({ faults: { delay: 1, delayMs: [1, 1] } });
    const data = randomBytes(5 * 1024 * 1024);
    const sha = createHash('sha256').update(data).digest('hex');
    const chunks = (): Readable =>
      Readable.from(
        (function* () {
          for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024);
        })(),
      );
    const sized = await send(p.url, 'PUT', '/uploads/upl_big?signature=s', chunks(), { length: data.length });
    expect(sized.text).toBe(`PUT /uploads/upl_big?signature=s ${data.length} ${sha}`);
    const chunked = await send(p.url, 'PUT', '/uploads/upl_big2', chunks());
    expect(chunked.text).toBe(`PUT /uploads/upl_big2 ${data.length} ${sha}`);
  });

  it("rewrites the target's address in JSON answers, so upload URLs come back through the proxy", async () => {
    const p = await proxy({ faults: {} });
    const ticket = await send(p.url, 'POST', '/ticket', Buffer.from('{}'));
    const uploadUrl = (JSON.parse(ticket.text) as { upload_url: string }).upload_url;
    expect(uploadUrl).toBe(`${p.url}/uploads/upl_1?expires=1&signature=ab`);
    expect(Number(ticket.headers['content-length'])).toBe(Buffer.byteLength(ticket.text));
    const put = await send(uploadUrl, 'PUT', uploadUrl, Buffer.from('abc'));
    expect(put.status).toBe(200);
    expect(p.stats.byRoute['PUT /uploads/{key}']?.forwarded).toBe(1);
  });

  it('a dropped connection does not break other requests on the same keep-alive pool', async () => {
    const p = await proxy({ faults: { dropBefore: 1 }, maxConsecutiveFaults: 1000, match: (_m, path) => path === '/drop' });
    const agent = new Agent({ keepAlive: true, maxSockets: 3 });
    try {
      const all = Array.from({ length: 12 }, (_, i) => outcome(send(p.url, 'GET', i % 2 ? '/drop' : '/slow', undefined, { agent })));
      const got = await Promise.all(all);
      expect(got).toEqual(got.map((_, i) => (i % 2 ? 'error' : '200')));
      // The pool still works afterwards.
      expect(await outcome(send(p.url, 'GET', '/slow', undefined, { agent }))).toBe('200');
    } finally {
      agent.destroy();
    }
  });

  it('hooks can hold an exchange and end it: onRequest before the target, onAnswered after it', async () => {
    const p = await proxy({});
    p.setHooks({ onRequest: (e) => (e.path === '/a' ? 'drop' : undefined) });
    expect(await outcome(send(p.url, 'GET', '/a'))).toBe('error');
    expect(seen).toHaveLength(0);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    p.setHooks({
      onAnswered: async () => {
        await held;
        return 'drop' as const;
      },
    });
    const b = outcome(send(p.url, 'GET', '/b'));
    for (let i = 0; i < 100 && !seen[0]?.finished; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen[0]?.finished).toBe(true);
    release();
    expect(await b).toBe('error');
    expect(p.stats.hookDrops).toBe(2);
  });

  it("passes Expect: 100-continue on: the 100 is the target's, and a refusal before it comes without the body being sent", async () => {
    // A target that decides before the body, as the service does: /refuse is answered at once, anything else told to send.
    const decider = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => res.end(`took ${bytes}`));
    });
    decider.on('checkContinue', (req, res) => {
      if ((req.url ?? '').startsWith('/refuse')) {
        res.writeHead(409, { connection: 'close', 'content-type': 'text/plain' });
        res.end('refused');
        return;
      }
      res.writeContinue();
      decider.emit('request', req, res);
    });
    await new Promise<void>((r) => decider.listen(0, '127.0.0.1', r));
    try {
      const p = await startFaultProxy({ target: `http://127.0.0.1:${(decider.address() as AddressInfo).port}`, seed: 1, faults: {} });
      proxies.push(p);
      const body = randomBytes(64 * 1024);
      // Sends the body only on 100 Continue; what it was told and what left.
      const ask = (path: string) =>
        new Promise<{ status: number; text: string; continued: boolean }>((resolve, reject) => {
          let continued = false;
          const req = request(new URL(path, p.url), {
            method: 'PUT',
            headers: { expect: '100-continue', 'content-length': String(body.length) },
            agent: false,
          });
          req.on('continue', () => {
            continued = true;
            req.end(body);
          });
          req.on('response', (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), continued }));
          });
          req.on('error', reject);
          req.flushHeaders();
        });
      expect(await ask('/refuse')).toEqual({ status: 409, text: 'refused', continued: false });
      expect(await ask('/take')).toEqual({ status: 200, text: `took ${body.length}`, continued: true });
    } finally {
      decider.closeAllConnections();
      await new Promise<void>((r) => decider.close(() => r()));
    }
  });

  it('names routes by their template', () => {
    expect(routeTemplate('POST', '/releases/7/tracks/upload-url')).toBe('/releases/{releaseId}/tracks/upload-url');
    expect(routeTemplate('GET', '/releases/7/tracks/3')).toBe('/releases/{releaseId}/tracks/{trackId}');
    expect(routeTemplate('PUT', '/uploads/upl_ab')).toBe('/uploads/{key}');
    expect(routeTemplate('GET', '/nowhere/1')).toBe('/nowhere/1');
  });
});
