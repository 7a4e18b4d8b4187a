// The fast lane (src/server/http/fast-lane.ts) against the Hono app: the same requests, sent as
// raw bytes to a service with the lane and to one without it over the same data directory, must
// get the same bytes back, but for the per-request values (Date, request ids). And the lane
// itself answers the plain reads and declines, having sent nothing, everything else.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fastLane } from '../../src/server/http/fast-lane.js';
import { RequestGate } from '../../src/server/http/gate.js';
import { lazySeededDirectory } from '../../src/server/artists/index.js';
import { createAccountInDataDir, openDataDir, silentLogger, startServer, type RunningServer } from '../../src/server/index.js';
import { DB_FILE } from '../../src/server/db/open.js';
import type { ServerDeps } from '../../src/server/handler.js';
import { api, makeTempDataDir } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';

/** Sends `raw` (whole requests, pipelined) on one connection and returns every byte answered until the service closes it. */
function exchange(url: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.end(raw);
  });
}

/** The per-request values made alike: the Date header and request ids (headers and bodies). */
const normalised = (bytes: string) => bytes.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -').replace(/req_[A-Za-z0-9_-]{16}/g, 'req_-');

/** A request as raw HTTP/1.1; the last of a pipelined batch closes the connection. */
function request(method: string, path: string, headers: Array<[string, string]>, close = true): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (close) lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

let dataDir: string;
let withLane: RunningServer;
let withoutLane: RunningServer;
let label: string;
let artist: string;
let own: number;
let foreign: number;
let etag: string;
let releasesTag: string;

beforeAll(async () => {
  dataDir = await makeTempDataDir();
  const common = { host: '127.0.0.1', port: 0, dataDir, sandbox: true, logger: silentLogger };
  withLane = await startServer(common);
  withoutLane = await startServer({ ...common, fastLane: false });
  expect(withoutLane.tokens).toEqual(withLane.tokens);
  label = withLane.tokens!.label;
  artist = withLane.tokens!.artist;
  own = (await createRelease(withLane, label)).id;
  foreign = (await createRelease(withLane, artist)).id;
  etag = (await api(withLane, label, 'GET', `/releases/${own}`)).headers.get('etag')!;
  releasesTag = (await api(withoutLane, label, 'GET', '/releases')).headers.get('etag')!;
});
afterAll(async () => {
  await withLane?.close();
  await withoutLane?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

describe('the same bytes with and without the fast lane', () => {
  const cases: Array<[string, () => string]> = [
    [
      'an own release, kept alive then closed',
      () => request('GET', `/releases/${own}`, [bearer(label)], false) + request('GET', `/releases/${own}`, [bearer(label)]),
    ],
    ['a query string', () => request('GET', `/releases/${own}?expand=tracks&x`, [bearer(label)])],
    ['a release that does not exist', () => request('GET', '/releases/999999', [bearer(label)])],
    ["another account's release", () => request('GET', `/releases/${foreign}`, [bearer(label)])],
    [
      'ids that are not ids',
      () =>
        ['0', '007', 'abc', '99999999999999999', '%31', `${own}/`, '-1'].map((id) => request('GET', `/releases/${id}`, [bearer(label)], false)).join('') +
        request('GET', '/releases/1', [bearer(label)]),
    ],
    [
      'no token, an unknown one, a malformed header, a lowercase scheme, two headers',
      () =>
        request('GET', `/releases/${own}`, [], false) +
        request('GET', `/releases/${own}`, [bearer('rd_unknown')], false) +
        request('GET', `/releases/${own}`, [['Authorization', label]], false) +
        request('GET', `/releases/${own}`, [['authorization', `bearer   ${label}`]], false) +
        request('GET', `/releases/${own}`, [bearer(label), bearer(label)]),
    ],
    ['HEAD', () => request('HEAD', `/releases/${own}`, [bearer(label)], false) + request('HEAD', '/lookup/countries', [bearer(label)])],
    [
      'If-None-Match: the tag, its weak form, another, *, a list',
      () =>
        [etag, `W/${etag}`, '"other"', '*', `"a", ${etag}`]
          .map((t) => request('GET', `/releases/${own}`, [bearer(label), ['If-None-Match', t]], false))
          .join('') + request('GET', '/lookup/genres', [bearer(label), ['If-None-Match', '*']]),
    ],
    [
      'every lookup, with a query, for both kinds of account',
      () =>
        ['/lookup/countries', '/lookup/genres', '/lookup/platforms', '/lookup/languages?x=1'].map((p) => request('GET', p, [bearer(label)], false)).join('') +
        request('GET', '/lookup/countries', [bearer(artist)]),
    ],
    [
      'other methods and neighbours',
      () =>
        request('POST', '/lookup/countries', [bearer(label), ['Content-Length', '0']], false) +
        request('DELETE', `/releases/${foreign}`, [bearer(label)], false) +
        request('GET', '/lookup/countries/', [bearer(label)], false) +
        request('GET', '/lookup', [bearer(label)]),
    ],
    ['Expect: 100-continue on a read', () => request('GET', `/releases/${own}`, [bearer(label), ['Expect', '100-continue']])],
    [
      'the releases without a query string, for both kinds of account, and with one',
      () =>
        request('GET', '/releases', [bearer(label)], false) +
        request('GET', '/releases', [bearer(artist)], false) +
        request('GET', '/releases?', [bearer(label)], false) +
        request('GET', '/releases?perPage=1', [bearer(label)], false) +
        request('GET', '/releases?perPage=0', [bearer(label)], false) +
        request('GET', '/releases/', [bearer(label)], false) +
        request('GET', '/releases', []),
    ],
    [
      'the releases, If-None-Match: their tag, another',
      () =>
        [releasesTag, '"other"'].map((t) => request('GET', '/releases', [bearer(label), ['If-None-Match', t]], false)).join('') +
        request('GET', '/releases', [bearer(label)]),
    ],
  ];
  test.each(cases)('%s', async (_, raw) => {
    const [a, b] = await Promise.all([exchange(withLane.url, raw()), exchange(withoutLane.url, raw())]);
    expect(a).toMatch(/^HTTP\/1\.1 /);
    expect(normalised(a)).toBe(normalised(b));
  });

  test('a refusal for too many requests, after the budget is spent in the lane', async () => {
    const dir = await makeTempDataDir();
    const common = { host: '127.0.0.1', port: 0, dataDir: dir, sandbox: true, logger: silentLogger, rateLimit: { requests: 2, windowMs: 600_000 } };
    const lane = await startServer(common);
    const app = await startServer({ ...common, fastLane: false });
    try {
      const token = lane.tokens!.label;
      const raw =
        ['/lookup/countries', '/releases/1'].map((p) => request('GET', p, [bearer(token)], false)).join('') + request('GET', '/lookup/genres', [bearer(token)]);
      const [a, b] = await Promise.all([exchange(lane.url, raw), exchange(app.url, raw)]);
      expect(a.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 429']);
      expect(normalised(a)).toBe(normalised(b));
    } finally {
      await lane.close();
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

test('a token revoked by another connection is refused by the lane at once', async () => {
  const dir = await makeTempDataDir();
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, sandbox: false, demoAccounts: false, logger: silentLogger });
  try {
    const token = createAccountInDataDir(dir, 'label', 'Lane Records');
    const get = async (path: string) => (await api(server, token, 'GET', path)).status;
    expect([await get('/lookup/countries'), await get('/releases/1'), await get('/lookup/countries')]).toEqual([200, 404, 200]);
    const db = new Database(join(dir, DB_FILE));
    db.prepare('DELETE FROM tokens').run();
    db.close();
    expect([await get('/lookup/countries'), await get('/releases/1')]).toEqual([401, 401]);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

describe('what the lane takes and what it leaves to the app', () => {
  let server: Server;
  let url: string;
  let close: () => void;

  beforeAll(async () => {
    const now = () => new Date();
    const { db, secret } = openDataDir(dataDir, now);
    const deps: ServerDeps = { db, dataDir, sandbox: true, demoAccounts: true, now, log: silentLogger, uploadSecret: secret, artists: lazySeededDirectory() };
    const lane = fastLane(deps, new RequestGate(db, { demoTokens: true, rateLimit: false }));
    // 599: the lane declined, and had sent nothing.
    server = createServer((req, res) => {
      if (!lane(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => db.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    close();
  });

  const statusOf = async (method: string, path: string, headers: Array<[string, string]>) =>
    Number(/^HTTP\/1\.1 (\d+)/.exec(await exchange(url, request(method, path, headers)))![1]);

  test('takes the plain reads, found or not', async () => {
    expect(await statusOf('GET', `/releases/${own}`, [bearer(label)])).toBe(200);
    expect(await statusOf('GET', `/releases/${own}`, [bearer(label), ['If-None-Match', etag]])).toBe(304);
    expect(await statusOf('GET', `/releases/${foreign}`, [bearer(label)])).toBe(404);
    for (const p of ['/lookup/countries', '/lookup/genres', '/lookup/platforms', '/lookup/languages'])
      expect(await statusOf('GET', p, [bearer(artist)])).toBe(200);
    expect(await statusOf('GET', '/releases', [bearer(label)])).toBe(200);
    expect(await statusOf('GET', '/releases', [bearer(label), ['If-None-Match', releasesTag]])).toBe(304);
  });

  test('leaves everything else to the app', async () => {
    const declined: Array<[string, string, Array<[string, string]>]> = [
      ['GET', `/releases/${own}`, []],
      ['GET', `/releases/${own}`, [bearer('rd_unknown')]],
      ['GET', `/releases/${own}`, [['Authorization', label]]],
      ['GET', `/releases/${own}`, [bearer(label), bearer(label)]],
      ['HEAD', `/releases/${own}`, [bearer(label)]],
      ['GET', '/releases/abc', [bearer(label)]],
      // Not an id's digits, or a query string (whose names the app checks).
      ['GET', '/releases/007', [bearer(label)]],
      ['GET', '/releases/0', [bearer(label)]],
      ['GET', `/releases/${own}?x=1`, [bearer(label)]],
      ['GET', '/lookup/genres?x=1', [bearer(label)]],
      ['GET', '/releases/%31', [bearer(label)]],
      ['GET', '/releases/99999999999999999', [bearer(label)]],
      ['GET', `/releases/${own}/`, [bearer(label)]],
      ['GET', `/releases/${own}/tracks`, [bearer(label)]],
      ['GET', '/releases?perPage=5', [bearer(label)]],
      ['GET', '/releases?', [bearer(label)]],
      ['GET', '/releases/', [bearer(label)]],
      ['GET', '/lookup/countries/', [bearer(label)]],
      ['POST', '/lookup/countries', [bearer(label), ['Content-Length', '0']]],
    ];
    for (const [method, path, headers] of declined) expect(await statusOf(method, path, headers), `${method} ${path}`).toBe(599);
  });
});
