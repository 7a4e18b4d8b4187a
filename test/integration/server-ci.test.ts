// What a CI pipeline relies on, over real HTTP against the real service: catalog numbers as the
// natural key, every mutation safe to retry, conditional reads for polling, and a sandbox that
// reviews on its own (driven by a controllable clock, never by sleeping).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBody, ReleaseResource, sandboxCatalog, sandboxEndpointIds, sandboxRoutes } from '../../src/contract/index.js';
import { DB_FILE } from '../../src/server/db/open.js';
import { downgradeToCoreVersion2 } from '../helpers/old-schema.js';
import { createRelease, submittableRelease } from '../helpers/releases.js';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';

/** A clock the tests move forward by hand; it starts at the real time so date checks still pass. */
function manualClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => void (offsetMs += ms) };
}

const clock = manualClock();
let s: TestServer;
let label: string;

beforeAll(async () => {
  s = await startTestServer({ now: clock.now });
  label = s.tokens.label;
});
afterAll(async () => {
  await s.close();
});

describe('catalog numbers', () => {
  test('a second release with the same catalog number (trimmed, any case) is 409 naming the first', async () => {
    const first = await createRelease(s, label, { catalog_number: 'CI-0001' });
    const again = await api(s, label, 'POST', '/releases', { ...validBody(), catalog_number: '  ci-0001 ' });
    expect(again.status).toBe(409);
    const err = ErrorBody.parse(again.body).error;
    expect(err.code).toBe('catalog_number_taken');
    expect(err.details).toEqual({ release_id: first.id, status: 'draft' });
    // Another account has its own catalog numbers.
    expect((await api(s, s.tokens.artist, 'POST', '/releases', { ...validBody(), catalog_number: 'CI-0001' })).status).toBe(201);
  });

  test('renumbering to a taken number is refused; keeping or changing only case of its own is not', async () => {
    const a = await createRelease(s, label, { catalog_number: 'CI-0002' });
    const b = await createRelease(s, label, { catalog_number: 'CI-0003' });
    const taken = await api(s, label, 'PATCH', `/releases/${b.id}/metadata`, { catalog_number: 'ci-0002' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.release_id).toBe(a.id);
    expect((await api(s, label, 'PATCH', `/releases/${b.id}/metadata`, { catalog_number: 'ci-0003' })).status).toBe(200);
    // A deleted release frees its number (releases are deleted for good).
    expect((await api(s, label, 'DELETE', `/releases/${a.id}`)).status).toBe(200);
    expect((await api(s, label, 'PATCH', `/releases/${b.id}/metadata`, { catalog_number: 'CI-0002' })).status).toBe(200);
  });

  test('catalog_number filters exactly; search finds catalog numbers too', async () => {
    const r = await createRelease(s, label, { catalog_number: 'CIX-77' });
    await createRelease(s, label, { catalog_number: 'CIX-770' });
    const exact = await api(s, label, 'GET', '/releases?catalog_number=%20cix-77%20');
    expect(exact.status).toBe(200);
    expect(exact.body.data.map((x: { id: number }) => x.id)).toEqual([r.id]);
    const search = await api(s, label, 'GET', '/releases?search=cix-77');
    expect(search.body.meta.total).toBe(2);
  });

  test('a database that already holds duplicates migrates, and they stay readable', async () => {
    const dataDir = await makeTempDataDir();
    try {
      let old = await startTestServer({ dataDir });
      const one = await createRelease(old, old.tokens.label, { catalog_number: 'DUP-1' });
      const two = await createRelease(old, old.tokens.label, { catalog_number: 'OTHER-1' });
      await old.close();
      // Back to the schema before the rule, with two releases sharing a number.
      const db = new Database(join(dataDir, DB_FILE));
      downgradeToCoreVersion2(db);
      db.prepare("UPDATE releases SET data = json_set(data, '$.catalog_number', 'dup-1 '), search_text = 'x' WHERE id = ?").run(two.id);
      db.close();

      old = await startTestServer({ dataDir });
      const token = old.tokens.label;
      expect((await api(old, token, 'GET', `/releases/${two.id}`)).status).toBe(200);
      const both = await api(old, token, 'GET', '/releases?catalog_number=DUP-1');
      expect(both.body.data.map((x: { id: number }) => x.id).sort()).toEqual([one.id, two.id].sort());
      expect((await api(old, token, 'GET', '/releases?search=dup-1')).body.meta.total).toBe(2);
      // Still editable without touching the number; a third one is refused.
      expect((await api(old, token, 'PATCH', `/releases/${two.id}/metadata`, { title: 'Renamed' })).status).toBe(200);
      expect((await api(old, token, 'POST', '/releases', { ...validBody(), catalog_number: 'DUP-1' })).status).toBe(409);
      await old.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('Idempotency-Key on every mutation', () => {
  test('PATCH, PUT and DELETE replay the first answer; another body under the key is refused', async () => {
    const r = await createRelease(s, label);
    const key = { 'idempotency-key': `patch-${r.id}` };
    const p1 = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Once' }, key);
    const p2 = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Once' }, key);
    expect(p2.status).toBe(200);
    expect(p2.headers.get('idempotent-replayed')).toBe('true');
    expect(p2.body).toEqual(p1.body);
    const reused = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Twice' }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');

    const putKey = { 'idempotency-key': `put-${r.id}` };
    const t1 = await api(s, label, 'PUT', `/releases/${r.id}/tracks`, [], putKey);
    expect(t1.status).toBe(200);
    const t2 = await api(s, label, 'PUT', `/releases/${r.id}/tracks`, [], putKey);
    expect(t2.headers.get('idempotent-replayed')).toBe('true');
    expect(t2.body).toEqual(t1.body);

    const delKey = { 'idempotency-key': `delete-${r.id}` };
    const d1 = await api(s, label, 'DELETE', `/releases/${r.id}`, undefined, delKey);
    expect(d1.status).toBe(200);
    // The release is gone, yet the retry of the DELETE that removed it answers its first 200.
    const d2 = await api(s, label, 'DELETE', `/releases/${r.id}`, undefined, delKey);
    expect(d2.status).toBe(200);
    expect(d2.headers.get('idempotent-replayed')).toBe('true');
    expect(d2.body).toEqual(d1.body);
    expect((await api(s, label, 'DELETE', `/releases/${r.id}`)).status).toBe(404);
  });

  test('a replayed error keeps its first body', async () => {
    await createRelease(s, label, { catalog_number: 'CI-REPLAY' });
    const key = { 'idempotency-key': 'create-taken' };
    const e1 = await api(s, label, 'POST', '/releases', { ...validBody(), catalog_number: 'CI-REPLAY' }, key);
    const e2 = await api(s, label, 'POST', '/releases', { ...validBody(), catalog_number: 'CI-REPLAY' }, key);
    expect(e1.status).toBe(409);
    expect(e2.status).toBe(409);
    // The first body, naming the replaying request (as its X-Request-Id header does).
    expect({ error: { ...e2.body.error, request_id: e1.body.error.request_id } }).toEqual(e1.body);
    expect(e2.body.error.request_id).toBe(e2.headers.get('x-request-id'));
    expect(e2.headers.get('idempotent-replayed')).toBe('true');
  });

  test('a key left in progress by a process that cannot be proven gone blocks for 30 s, then the next request takes it over', async () => {
    const r = await createRelease(s, label);
    const body = JSON.stringify({ title: 'After The Crash' });
    const key = `crash-${r.id}`;
    // The first attempt: the key is recorded, then its process "dies" before answering, on
    // another host (nothing there can be asked whether it still runs).
    const first = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, body, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const db = new Database(join(s.dataDir, DB_FILE));
    db.prepare("UPDATE idempotency SET status = NULL, body = NULL, owner_host = 'another-host' WHERE key = ?").run(key);
    db.close();
    const busy = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, body, { 'idempotency-key': key });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('idempotency_in_progress');
    expect(busy.headers.get('retry-after')).toBe('1');
    clock.advance(31_000);
    const taken = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, body, { 'idempotency-key': key });
    expect(taken.status).toBe(200);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(taken.body.title).toBe('After The Crash');
    const replay = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, body, { 'idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('ETag and If-None-Match', () => {
  test('GET /releases/{id} and GET /releases answer 304 while nothing changed', async () => {
    const r = await createRelease(s, label);
    for (const path of [`/releases/${r.id}`, '/releases?perPage=5']) {
      const a = await api(s, label, 'GET', path);
      const tag = a.headers.get('etag');
      expect(tag).toMatch(/^"[^"]+"$/);
      const b = await api(s, label, 'GET', path, undefined, { 'if-none-match': tag! });
      expect(b.status).toBe(304);
      expect(b.body).toBe('');
      expect(b.headers.get('etag')).toBe(tag);
      expect((await api(s, label, 'GET', path, undefined, { 'if-none-match': '"other"' })).status).toBe(200);
    }
    const before = (await api(s, label, 'GET', `/releases/${r.id}`)).headers.get('etag')!;
    clock.advance(1000);
    await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Changed' });
    const after = await api(s, label, 'GET', `/releases/${r.id}`, undefined, { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });
});

describe('sandbox routes in the contract', () => {
  test('are typed apart from the endpoints, and served from their catalog entries', async () => {
    expect(sandboxEndpointIds).toEqual(['sandboxApprove', 'sandboxReject', 'sandboxWithdraw', 'sandboxDeliver', 'sandboxGoLive', 'sandboxTakeDown']);
    expect(sandboxCatalog.sandboxReject.body!.safeParse({ codes: ['artwork_too_small'], notes: 'x' }).success).toBe(true);
    expect(sandboxCatalog.sandboxReject.body!.safeParse({ codes: [] }).success).toBe(false);
    const r = await submittableRelease(s, label);
    expect((await api(s, label, 'POST', `/releases/${r.id}/submit`, {})).status).toBe(200);
    const path = sandboxRoutes.sandboxReject.path.replace('{releaseId}', String(r.id));
    const rej = await api(s, label, sandboxRoutes.sandboxReject.method, path, { codes: ['artwork_too_small'] });
    expect(rej.status).toBe(200);
    expect(ReleaseResource.parse(rej.body).status).toBe('rejected');
  });
});

describe('sandbox auto-review', () => {
  for (const [outcome, status] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
    ['live', 'live'],
  ] as const) {
    test(`${outcome}: due after the delay, applied when the release is next read or listed`, async () => {
      const c = manualClock();
      const auto = await startTestServer({ now: c.now, sandboxAutoReview: { outcome, delayMs: 60_000 } });
      try {
        const token = auto.tokens.label;
        const r = await submittableRelease(auto, token);
        const sub = await api(auto, token, 'POST', `/releases/${r.id}/submit`, {});
        expect(sub.body.release.status).toBe('in_review');
        c.advance(59_000);
        expect((await api(auto, token, 'GET', `/releases/${r.id}`)).body.status).toBe('in_review');
        c.advance(2_000);
        const listed = await api(auto, token, 'GET', `/releases?status=${status}`);
        expect(listed.body.data.map((x: { id: number }) => x.id)).toContain(r.id);
        const got = ReleaseResource.parse((await api(auto, token, 'GET', `/releases/${r.id}`)).body);
        expect(got.status).toBe(status);
        if (outcome === 'reject') {
          expect(got.review).toMatchObject({ codes: ['sandbox_auto_reject'] });
          expect(got.review!.notes).toMatch(/automatically/);
        }
      } finally {
        await auto.close();
      }
    });
  }

  test('a review another process brings forward is applied on the next request', async () => {
    // The service skips looking for due reviews while nothing was written and none is due yet;
    // a write from another connection (another process sharing the data directory) must end that.
    const c = manualClock();
    const auto = await startTestServer({ now: c.now, sandboxAutoReview: { outcome: 'approve', delayMs: 60_000 } });
    const other = new Database(join(auto.dataDir, DB_FILE));
    try {
      const token = auto.tokens.label;
      const r = await submittableRelease(auto, token);
      await api(auto, token, 'POST', `/releases/${r.id}/submit`, {});
      expect((await api(auto, token, 'GET', `/releases/${r.id}`)).body.status).toBe('in_review');
      expect((await api(auto, token, 'GET', `/releases/${r.id}`)).body.status).toBe('in_review');
      const earlier = new Date(c.now().getTime() - 1_000).toISOString();
      other.prepare("UPDATE releases SET data = json_set(data, '$.auto_review.due_at', ?) WHERE id = ?").run(earlier, r.id);
      expect((await api(auto, token, 'GET', `/releases/${r.id}`)).body.status).toBe('approved');
    } finally {
      other.close();
      await auto.close();
    }
  });

  test('without the option nothing moves on its own', async () => {
    const r = await submittableRelease(s, label);
    await api(s, label, 'POST', `/releases/${r.id}/submit`, {});
    clock.advance(3_600_000);
    expect((await api(s, label, 'GET', `/releases/${r.id}`)).body.status).toBe('in_review');
  });
});

function validBody() {
  return {
    type: 'single',
    title: 'Northern Sky',
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    label: 'Northern Lights Records',
    genre: 'Pop',
    language: 'en',
    explicit: 'not_explicit',
  };
}
