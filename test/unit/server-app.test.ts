// Routes come from the catalog: a catalog entry without a handler, a handler twice, or a handler
// for an endpoint the catalog does not have all stop the service from starting; each route's
// schemas are built on its first request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { catalog } from '../../src/contract/index.js';
import { buildApp, mergeHandlers } from '../../src/server/app.js';
import type { HandlerMap } from '../../src/server/handler.js';
import { lazySeededDirectory } from '../../src/server/artists/index.js';
import { openDataDir, silentLogger } from '../../src/server/index.js';

const dir = mkdtempSync(join(tmpdir(), 'reldist-app-'));
const opened = openDataDir(dir, () => new Date());
afterAll(() => {
  opened.db.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = { db: opened.db, dataDir: dir, sandbox: true, now: () => new Date(), log: silentLogger, uploadSecret: opened.secret, artists: lazySeededDirectory() };
const all: HandlerMap = Object.fromEntries(Object.keys(catalog).map((id) => [id, () => ({})]));

test('every catalog endpoint registered: the app builds', () => {
  expect(() => buildApp({ deps, rateLimit: false, baseUrl: () => '', handlerMaps: { all } })).not.toThrow();
});

test('a missing handler is a startup error naming the endpoint', () => {
  const { getMe: _dropped, ...rest } = all;
  expect(() => buildApp({ deps, rateLimit: false, baseUrl: () => '', handlerMaps: { rest } })).toThrow(/no handler for catalog endpoint getMe \(GET \/me\)/);
});

test('a handler defined twice, or for an endpoint not in the catalog, is a startup error', () => {
  expect(() => mergeHandlers({ a: { getMe: all.getMe }, b: { getMe: all.getMe } })).toThrow(/getMe is defined twice/);
  // Built like `all`, so the compiler lets through the id it would refuse in a literal.
  const stray: HandlerMap = Object.fromEntries([['notAnEndpoint', () => ({})]]);
  expect(() => mergeHandlers({ a: stray })).toThrow(/not in the catalog/);
});

test("a route's schemas are built on its first request, once, and check every request that waited for them", async () => {
  const seen: unknown[] = [];
  const listing: HandlerMap = Object.fromEntries([['listReleases', ({ query }: { query: unknown }) => (seen.push(query), { data: [], meta: {} })]]);
  const { listReleases: _replaced, ...rest } = all;
  const app = buildApp({ deps, rateLimit: false, baseUrl: () => '', handlerMaps: { rest, listing } });
  const headers = { authorization: `Bearer ${opened.tokens!.label}` };
  const answers = await Promise.all(['/releases?perPage=5', '/releases?perPage=5000', '/releases'].map((path) => app.request(path, { headers })));
  expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
  expect(seen).toEqual([{ perPage: 5 }, {}]);
});
