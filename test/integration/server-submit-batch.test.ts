// POST /releases/submit, the batch form of submit, against the real service: each release
// answered as POST /releases/{id}/submit answers it, in order; one refusal never undoes another's
// submit; the maximum; dry runs change nothing; an idempotent retry; the rate limit counts releases.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { submitBatchMax } from '../../src/contract/index.js';
import { createRelease, submittableRelease } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const batch = (body: unknown, headers: Record<string, string> = {}, server = s) => api(server, server.tokens.label, 'POST', '/releases/submit', body, headers);
const single = (id: unknown, body: unknown = {}) => api(s, s.tokens.label, 'POST', `/releases/${id}/submit`, body);
const read = async (id: unknown) => (await api(s, s.tokens.label, 'GET', `/releases/${id}`)).body;
/** An answer without what names the request that carried it. */
const withoutRequestId = (body: any) => (body?.error ? { error: { ...body.error, request_id: undefined } } : body);

describe('POST /releases/submit', () => {
  test('answers each release as the single endpoint does, in order; a refusal undoes no other submit', async () => {
    const ready = await submittableRelease(s, s.tokens.label);
    const blocked = await createRelease(s, s.tokens.label, { title: 'No Tracks' });
    const later = await submittableRelease(s, s.tokens.label, { title: 'Later' });
    const submitted = await submittableRelease(s, s.tokens.label, { title: 'Submitted Before' });
    expect((await single(submitted.id)).status).toBe(200);
    const foreign = await createRelease(s, s.tokens.artist, { title: 'Not Yours', artists: [{ name: 'Lena Voss', role: 'primary' }] });
    // An id has one type, the integer: its text is refused with the whole batch, naming the field.
    const asText = await batch({ release_ids: [ready.id, String(later.id)] });
    expect([asText.status, Object.keys(asText.body.error.fields)]).toEqual([422, ['release_ids.1']]);
    const ids = [ready.id, blocked.id, 999999, foreign.id, later.id, ready.id, submitted.id];

    const res = await batch({ release_ids: ids, notes: 'from CI' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.release_id, r.status])).toEqual([
      [ready.id, 200],
      [blocked.id, 422],
      [999999, 404],
      [foreign.id, 404],
      [later.id, 200],
      [ready.id, 409],
      [submitted.id, 409],
    ]);
    const [first, refused, , , fifth] = res.body.data;
    expect(first.body).toMatchObject({ submitted: true, message: `Release ${ready.id} is in review.`, release: { status: 'in_review' } });
    expect(first.body.release.upc).toMatch(/^\d{12,13}$/);
    expect(first.body.release.tracks[0].isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
    expect(first.body.release.submission_notes).toBe('from CI');
    expect(refused.body.error).toMatchObject({ status: 422, code: 'submit_blocked', request_id: res.headers.get('x-request-id') });
    expect(fifth.body.submitted).toBe(true);
    // A release already in review says so as data, so that a re-run need not read it again.
    expect(res.body.data[5].body.error.details).toEqual({ release_id: ready.id, status: 'in_review' });
    expect(res.body.data[6].body.error.details).toEqual({ release_id: submitted.id, status: 'in_review' });
    // What stayed is what the answers say: the refused release is untouched, the others are in review.
    expect((await read(ready.id)).status).toBe('in_review');
    expect((await read(later.id)).status).toBe('in_review');
    expect((await read(blocked.id)).status).toBe('draft');
    expect((await read(blocked.id)).updated_at).toBe(blocked.updated_at);

    // Now that the batch ran, the single endpoint answers the same for each refused release.
    for (const [i, id] of ids.entries()) {
      if (res.body.data[i].status === 200) continue;
      const alone = await single(id, { notes: 'from CI' });
      expect([alone.status, withoutRequestId(alone.body)], `release ${id}`).toEqual([res.body.data[i].status, withoutRequestId(res.body.data[i].body)]);
    }
  });

  test('a dry run answers what the single dry run answers and changes nothing', async () => {
    const ready = await submittableRelease(s, s.tokens.label, { title: 'Dry' });
    const blocked = await createRelease(s, s.tokens.label, { title: 'Dry, No Tracks' });
    const ids = [ready.id, blocked.id, ready.id];
    const res = await batch({ release_ids: ids, dry_run: true });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.status, r.body.submitted])).toEqual([
      [200, false],
      [200, false],
      [200, false],
    ]);
    for (const [i, id] of ids.entries()) expect(res.body.data[i].body).toEqual((await single(id, { dry_run: true })).body);
    expect((await read(ready.id)).status).toBe('draft');
    expect((await read(ready.id)).updated_at).toBe(ready.updated_at);
    expect((await read(ready.id)).upc).toBe(null);
  });

  test(`takes ${submitBatchMax} releases; one more, or none, is a 422 naming release_ids`, async () => {
    const full = await batch({ release_ids: Array.from({ length: submitBatchMax }, (_, i) => 900000 + i), dry_run: true });
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveLength(submitBatchMax);
    expect(full.body.data.every((r: any) => r.status === 404)).toBe(true);

    const over = await batch({ release_ids: Array.from({ length: submitBatchMax + 1 }, (_, i) => 900000 + i), dry_run: true });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('validation_failed');
    expect(over.body.error.fields).toEqual({ release_ids: [`at most ${submitBatchMax} releases per request`] });

    const empty = await batch({ release_ids: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields).toEqual({ release_ids: ['at least one release'] });
  });

  test('a retry with the same Idempotency-Key replays the first answer and submits nothing twice', async () => {
    const a = await submittableRelease(s, s.tokens.label, { title: 'Once A' });
    const b = await submittableRelease(s, s.tokens.label, { title: 'Once B' });
    const key = { 'idempotency-key': 'submit-batch-retry-1' };
    const first = await batch({ release_ids: [a.id, b.id] }, key);
    expect(first.body.data.map((r: any) => r.status)).toEqual([200, 200]);
    const again = await batch({ release_ids: [a.id, b.id] }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // Without the key, the same batch finds both in review: nothing changed, nothing assigned anew.
    const fresh = await batch({ release_ids: [a.id, b.id] });
    expect(fresh.body.data.map((r: any) => [r.status, r.body.error.code])).toEqual([
      [409, 'state_conflict'],
      [409, 'state_conflict'],
    ]);
    expect((await read(a.id)).upc).toBe(first.body.data[0].body.release.upc);
  });

  test('does not take the place of /releases/{releaseId}: GET /releases/submit is an unknown release', async () => {
    const res = await api(s, s.tokens.label, 'GET', '/releases/submit');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('POST /releases/submit and the rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimit: { requests: 5, windowMs: 600_000 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  test('a batch counts as one request per release; a refused batch is not kept under its key', async () => {
    const send = (n: number, headers: Record<string, string> = {}) =>
      batch({ release_ids: Array.from({ length: n }, (_, i) => 900000 + i), dry_run: true }, headers, limited);
    expect((await send(3)).status).toBe(200);
    const key = { 'idempotency-key': 'submit-batch-limited-1' };
    const refused = await send(3, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Its arrival took one request of the two left; one is left.
    expect((await api(limited, limited.tokens.label, 'GET', '/me')).status).toBe(200);
    const retried = await send(3, key);
    expect(retried.status).toBe(429);
    expect(retried.headers.get('idempotent-replayed')).toBe(null);
  });
});
