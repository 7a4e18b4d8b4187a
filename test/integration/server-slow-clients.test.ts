// Slow clients cannot hold the service: headers have a bound, bodies and uploads a minimum rate,
// and --max-connections holds per client address as well as in total. Each slow socket is
// watched from its client's side until the service closes it, while a normal client's requests
// go on succeeding.
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256 } from '../helpers/audio.js';
import { createRelease, validWav } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Watched {
  /** ms from the moment the bound started (connected, or the request's headers sent) to the close. */
  lasted: Promise<number>;
  /** What the service wrote before closing. */
  received(): string;
  socket: Socket;
}

/**
 * A client that opens a connection, sends `head` at once and then `drip` one byte every `everyMs`
 * until the service closes it (bounded: it stops dripping after `drip` runs out). The bound is
 * timed from the connection's opening (`from: 'connect'`) or from the end of `head` (`'head'`).
 */
function trickle(url: string, o: { head: string | Buffer; drip: string; everyMs: number; from: 'connect' | 'head'; localAddress?: string }): Watched {
  const { port, hostname } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, ...(o.localAddress ? { localAddress: o.localAddress } : {}) });
  let received = '';
  let start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (received += d));
  socket.on('error', () => {});
  socket.once('connect', () => {
    start = performance.now();
    socket.write(o.head, () => {
      if (o.from === 'head') start = performance.now();
    });
    let at = 0;
    timer = setInterval(() => {
      if (at < o.drip.length && !socket.destroyed) socket.write(o.drip[at++]!);
    }, o.everyMs);
  });
  const lasted = new Promise<number>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(performance.now() - start);
    }),
  );
  return { lasted, received: () => received, socket };
}

/** A code of the contract's error body in a raw HTTP answer, or the status line if there is none. */
function answerOf(raw: string): string {
  const status = raw.split('\r\n', 1)[0] ?? '';
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  try {
    return `${status.split(' ')[1]} ${JSON.parse(body).error.code}`;
  } catch {
    return status || '(nothing)';
  }
}

/** A normal client: requests in a loop (bounded) until `until` settles; every status it got. */
async function normalClient(s: TestServer, releaseId: number, until: Promise<unknown>, max = 400): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const statuses: number[] = [];
  for (let i = 0; i < max && !done; i++) {
    const r =
      i % 3 === 2
        ? await api(s, s.tokens.label, 'PATCH', `/releases/${releaseId}/metadata`, { title: `Title ${i}` })
        : await api(s, s.tokens.label, 'GET', i % 3 === 0 ? `/releases/${releaseId}` : '/lookup/countries');
    statuses.push(r.status);
    await sleep(20);
  }
  return statuses;
}

describe('slow headers, slow bodies and trickling uploads are cut within their bounds', () => {
  const limits = { headersTimeoutMs: 2000, keepAliveTimeoutMs: 1000, bodyTimeoutMs: 3000, minBodyRate: 1024, bodyRateWindowMs: 2000 };
  // The checks run every 200 ms at these bounds; the rest is room for a loaded machine.
  const SLACK_MS = 2500;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ clientLimits: limits });
  });
  afterAll(() => s.close());

  test('500 slow-header, 50 slow-body and 20 trickling-upload connections; a normal client succeeds throughout', async () => {
    // Its own service, to count what it logged once stopped.
    const s = await startTestServer({ clientLimits: limits });
    let closed = false;
    try {
      const releaseId = (await createRelease(s, s.tokens.label)).id;
      const wav = validWav();
      const uploadUrls: string[] = [];
      for (let i = 0; i < 20; i++) {
        const u = await api(s, s.tokens.label, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
          filename: `t${i}.wav`,
          content_type: 'audio/wav',
          size: wav.length,
          sha256: sha256(wav),
        });
        expect(u.status).toBe(201);
        uploadUrls.push(u.body.upload_url);
      }

      const headers = Array.from({ length: 500 }, () =>
        trickle(s.url, { head: 'GET /lookup/countries HTTP/1.1\r\nHost: x\r\n', drip: 'X-Slow: aaaaaaaaaaaaaaaaaaaa', everyMs: 500, from: 'connect' }),
      );
      const json = '{"title":"Slow","artists":[]}'.padEnd(600, ' ');
      const bodies = Array.from({ length: 50 }, () =>
        trickle(s.url, {
          head: `POST /releases HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.tokens.label}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`,
          drip: json,
          everyMs: 500,
          from: 'head',
        }),
      );
      const uploads = uploadUrls.map((url) => {
        const u = new URL(url);
        const head = Buffer.concat([
          Buffer.from(`PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: x\r\nContent-Type: audio/wav\r\nContent-Length: ${wav.length}\r\n\r\n`),
          wav.subarray(0, 1000),
        ]);
        return trickle(s.url, { head, drip: wav.subarray(1000, 1100).toString('latin1'), everyMs: 500, from: 'head' });
      });

      const all = Promise.all([...headers, ...bodies, ...uploads].map((w) => w.lasted));
      const statuses = await normalClient(s, releaseId, all);
      const [headerTimes, bodyTimes, uploadTimes] = [headers, bodies, uploads].map((ws) => Promise.all(ws.map((w) => w.lasted)));

      // Closed by the bound, not before it and not long after.
      for (const ms of await headerTimes!) expect(ms).toBeGreaterThan(limits.headersTimeoutMs - 100);
      expect(Math.max(...(await headerTimes!))).toBeLessThan(limits.headersTimeoutMs + SLACK_MS);
      for (const ms of [...(await bodyTimes!), ...(await uploadTimes!)]) expect(ms).toBeGreaterThan(limits.bodyRateWindowMs - 100);
      expect(Math.max(...(await bodyTimes!), ...(await uploadTimes!))).toBeLessThan(limits.bodyRateWindowMs + SLACK_MS);
      // Each told why, in the contract's error body, where an answer was still possible.
      expect(new Set(headers.map((w) => answerOf(w.received())))).toEqual(new Set(['408 request_timeout']));
      expect(new Set(bodies.map((w) => answerOf(w.received())))).toEqual(new Set(['408 request_timeout']));
      expect(new Set(uploads.map((w) => answerOf(w.received())))).toEqual(new Set(['408 request_timeout']));

      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((st) => st !== 200)).toEqual([]);
      expect(s.errors).toEqual([]);
      await s.close();
      closed = true;
      // Every cut logged: a line each up to 20 per 10 s, then a count of the rest.
      const lines = s.warnings.filter((l) => /^closed a connection from 127\.0\.0\.1/.test(l));
      expect(lines.length).toBe(20);
      const kinds = new Set<string>();
      for (const line of lines) {
        expect(line).toMatch(
          /^closed a connection from 127\.0\.0\.1(: no complete request headers within 2s| \((POST \/releases|PUT \/uploads\/upl_[0-9a-f]{32})\): the request body arrived too slowly: .*)$/,
        );
        kinds.add(line.includes('headers') ? 'headers too slow' : 'bodies too slow');
      }
      const summary = s.warnings.find((l) => l.startsWith('and more clients cut off than shown: '));
      const counts = [...(summary ?? '').matchAll(/(\d+) (headers too slow|bodies too slow)/g)];
      for (const m of counts) kinds.add(m[2]!);
      expect(lines.length + counts.reduce((n, m) => n + Number(m[1]), 0)).toBe(570);
      expect(kinds).toEqual(new Set(['headers too slow', 'bodies too slow']));
    } finally {
      if (!closed) await s.close();
    }
  });

  test('a JSON body slower than its whole bound but above the rate is cut at the bound', async () => {
    // 1200 bytes a second: above the minimum rate, but 6000 bytes take 5 s, over the 3 s bound.
    const json = `{"title":"${'a'.repeat(5980)}"}`;
    const w = trickle(s.url, {
      head: `POST /releases HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.tokens.label}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`,
      drip: '',
      everyMs: 1000,
      from: 'head',
    });
    const feed = setInterval(() => w.socket.write(json.slice(0, 120)), 100);
    const ms = await w.lasted;
    clearInterval(feed);
    expect(ms).toBeGreaterThan(limits.bodyTimeoutMs - 100);
    expect(ms).toBeLessThan(limits.bodyTimeoutMs + SLACK_MS);
    expect(answerOf(w.received())).toBe('408 request_timeout');
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const w = trickle(s.url, {
      head: `GET /lookup/countries HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.tokens.label}\r\n\r\n`,
      drip: '',
      everyMs: 1000,
      from: 'head',
    });
    const ms = await w.lasted;
    expect(w.received()).toMatch(/^HTTP\/1\.1 200/);
    // Node closes it 1 s after the advertised keep-alive timeout.
    expect(ms).toBeGreaterThan(limits.keepAliveTimeoutMs);
    expect(ms).toBeLessThan(limits.keepAliveTimeoutMs + 1000 + SLACK_MS);
  });
  test('a keep-alive connection fed only empty lines is closed all the same', async () => {
    // Empty lines start no request (no headers bound) but restart Node's keep-alive timer.
    const w = trickle(s.url, {
      head: `GET /lookup/countries HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.tokens.label}\r\n\r\n`,
      drip: '\r\n'.repeat(40),
      everyMs: 200,
      from: 'head',
    });
    const ms = await w.lasted;
    expect(w.received()).toMatch(/^HTTP\/1\.1 200/);
    // Idle longer than any real client can be: keep-alive + Node's second + the headers bound.
    const bound = limits.keepAliveTimeoutMs + 1000 + limits.headersTimeoutMs;
    expect(ms).toBeGreaterThan(bound - 100);
    expect(ms).toBeLessThan(bound + SLACK_MS);
    expect(s.warnings).toContainEqual(expect.stringMatching(/^closed a connection from 127\.0\.0\.1: no request for \ds, kept open by empty lines$/));
  });
});

test('a slow but moving upload lives to completion; one under the minimum rate is cut', async () => {
  const wav = validWav();
  // 512 KiB/s judged each second: 64 KiB every 50 ms (about 1.2 MiB/s) lives, every 250 ms does not.
  const s = await startTestServer({ clientLimits: { minBodyRate: 512 * 1024, bodyRateWindowMs: 1000 } });
  try {
    const releaseId = (await createRelease(s, s.tokens.label)).id;
    const put = async (delayMs: number, stopAfter = Infinity) => {
      const u = await api(s, s.tokens.label, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
        filename: 'a.wav',
        content_type: 'audio/wav',
        size: wav.length,
        sha256: sha256(wav),
      });
      const url = new URL(u.body.upload_url);
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: url.pathname + url.search,
          headers: { 'content-length': String(wav.length) },
        });
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        void (async () => {
          for (let at = 0; at < Math.min(wav.length, stopAfter) && !req.destroyed; at += 65536) {
            if (!req.write(wav.subarray(at, at + 65536))) await new Promise((r) => req.once('drain', r));
            await sleep(delayMs);
          }
          if (!req.destroyed) req.end();
        })();
      });
    };
    const moving = await put(50);
    expect(moving.status, moving.body).toBe(200);
    const slow = await put(250, 20 * 65536);
    expect(slow.status).toBe(408);
    expect(JSON.parse(slow.body).error.code).toBe('request_timeout');
    expect(s.errors).toEqual([]);
    // Logged with the path only: the query holds the upload's signature.
    expect(s.warnings).toEqual([
      expect.stringMatching(
        /^closed a connection from 127\.0\.0\.1 \(PUT \/uploads\/upl_[0-9a-f]{32}\): the request body arrived too slowly: [\d.]+ KiB in 1(\.\d)?s, under the minimum of 512 KiB\/s$/,
      ),
    ]);
  } finally {
    await s.close();
  }
});

describe('--max-connections holds per client address', () => {
  /** Sockets from 127.0.0.1 holding an unfinished request, reopened as the service closes them (bounded). */
  function holdFrom(url: string, count: number, reopenings: number) {
    const open = new Set<Socket>();
    let left = reopenings;
    let stopped = false;
    const one = () => {
      const w = trickle(url, { head: 'GET /lookup/countries HTTP/1.1\r\n', drip: '', everyMs: 1000, from: 'connect', localAddress: '127.0.0.1' });
      open.add(w.socket);
      void w.lasted.then(() => {
        open.delete(w.socket);
        if (!stopped && left-- > 0) one();
      });
    };
    for (let i = 0; i < count; i++) one();
    return {
      /** Stops reopening; once the service has closed what it refuses, the sockets still open. */
      async settle(): Promise<number> {
        stopped = true;
        await sleep(500);
        return open.size;
      },
      stop() {
        stopped = true;
        for (const sk of open) sk.destroy();
      },
    };
  }

  /** `n` requests from 127.0.0.2, each on a new connection; their statuses (0: the connection failed). */
  async function secondClient(s: TestServer, n: number): Promise<number[]> {
    const { port } = new URL(s.url);
    const agent = new Agent({ keepAlive: false });
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      statuses.push(
        await new Promise<number>((resolve) => {
          const req = request(
            { host: '127.0.0.1', port, path: '/lookup/countries', localAddress: '127.0.0.2', agent, headers: { authorization: `Bearer ${s.tokens.artist}` } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', () => resolve(0));
          req.end();
        }),
      );
      await sleep(5);
    }
    agent.destroy();
    return statuses;
  }

  test('110 sockets held from one address: 25 stay, a second address keeps 130 of 130 requests succeeding', async () => {
    const s = await startTestServer({ maxConnections: 100, clientLimits: { headersTimeoutMs: 60_000 } });
    try {
      const held = holdFrom(s.url, 110, 400);
      await sleep(300);
      const statuses = await secondClient(s, 130);
      const stillOpen = await held.settle();
      held.stop();
      expect(statuses.filter((st) => st !== 200)).toEqual([]);
      expect(stillOpen).toBe(25);
      expect(s.warnings.some((l) => /refused a connection from 127\.0\.0\.1: it has 25 open \(--max-connections-per-address\)/.test(l))).toBe(true);
    } finally {
      await s.close();
    }
  });

  test('control: with the per-address cap at the total, the same sockets lock the second address out', async () => {
    const s = await startTestServer({ maxConnections: 100, maxConnectionsPerAddress: 100, clientLimits: { headersTimeoutMs: 60_000 } });
    try {
      const held = holdFrom(s.url, 110, 0);
      await sleep(500);
      const statuses = await secondClient(s, 10);
      const stillOpen = await held.settle();
      held.stop();
      expect(stillOpen).toBe(100);
      expect(statuses.filter((st) => st === 200)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
