// Routes come from the catalog: a catalog entry without a handler, a handler twice, or a handler
// for an endpoint the catalog does not have all stop the service from starting; each route's
// schemas are built on its first request.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

const deps = {
  db: opened.db,
  dataDir: dir,
  sandbox: true,
  now: () => new Date(),
  log: silentLogger,
  uploadSecret: opened.secret,
  artists: lazySeededDirectory(),
};
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
  const listing: HandlerMap = Object.fromEntries([
    [
      'listReleases',
      ({ query }: { query: unknown }) => {
        seen.push(query);
        return { data: [], meta: {} };
      },
    ],
  ]);
  const { listReleases: _replaced, ...rest } = all;
  const app = buildApp({ deps, rateLimit: false, baseUrl: () => '', handlerMaps: { rest, listing } });
  const headers = { authorization: `Bearer ${opened.tokens!.label}` };
  const answers = await Promise.all(['/releases?perPage=5', '/releases?perPage=5000', '/releases'].map((path) => app.request(path, { headers })));
  expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
  expect(seen).toEqual([{ perPage: 5 }, {}]);
});

test('a keyed mutation whose handler could commit without its answer is refused at run time too (the types refuse it first)', async () => {
  const errors: string[] = [];
  const logged = { ...deps, log: { ...silentLogger, error: (m: string, f?: Record<string, unknown>) => errors.push(`${m} ${JSON.stringify(f)}`) } };
  const write = () =>
    opened.db.prepare("INSERT INTO meta (key, value) VALUES ('app-test-write', 'x') ON CONFLICT(key) DO UPDATE SET value = value || 'x'").run();
  const written = () => (opened.db.prepare("SELECT value FROM meta WHERE key = 'app-test-write'").get() as { value: string } | undefined)?.value ?? '';
  // Built like `all`, so the compiler lets through what it refuses in a literal: an async
  // handler that writes and answers without commit(), and a plain one that returns a promise.
  const faulty: HandlerMap = Object.fromEntries([
    [
      'submitLabelPreference',
      async () => {
        write();
        return { message: 'saved' };
      },
    ],
    ['removeLabelArtist', () => Promise.resolve({ message: 'removed' })],
  ]);
  const { submitLabelPreference: _a, removeLabelArtist: _b, ...rest } = all;
  const app = buildApp({ deps: logged, rateLimit: false, baseUrl: () => '', handlerMaps: { rest, faulty } });
  const post = (path: string, key: string, body: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${opened.tokens!.label}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  const a = await post('/preferences/label/submit', 'app-test-a', {});
  expect(a.status).toBe(500);
  expect(errors.join('\n')).toContain('answered without commit()');
  const b = await post('/preferences/label/artist/remove', 'app-test-b', { artist_id: 1 });
  expect(b.status).toBe(500);
  expect(errors.join('\n')).toContain('must be an async function');
  // Neither answer was kept: the keys may be tried again for real.
  expect(opened.db.prepare("SELECT COUNT(*) AS n FROM idempotency WHERE key LIKE 'app-test-%'").get()).toEqual({ n: 0 });
  expect(written()).toBe('x');
});

test('only app.ts makes a Committed answer (RequestInput.commit): no handler forges one', () => {
  const root = join(import.meta.dirname, '../../src/server');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const makers = files.filter((f) => readFileSync(join(root, f), 'utf8').includes('Committed.of('));
  expect(makers).toEqual(['app.ts']);
});
