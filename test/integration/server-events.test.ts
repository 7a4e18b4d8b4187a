// GET /events against the real service: every kind of change records exactly one event in the
// change's own transaction (a refused change none), paging with `after`, `last`, the filters, the
// long poll (answered when an event commits, bounded otherwise, and across processes sharing a
// data directory), and no event of another account ever visible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease, daysFromNow, submittableRelease, upload, validWav } from '../helpers/releases.js';
import { ListEventsResponse } from '../../src/contract/events.js';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
});
afterAll(async () => {
  await s?.close();
});

async function events(query = '', t = token): Promise<ListEventsResponse> {
  const r = await api(s, t, 'GET', `/events${query}`);
  if (r.status !== 200) throw new Error(`GET /events${query}: ${r.status} ${JSON.stringify(r.body)}`);
  // Every answer holds to the contract's schema.
  return ListEventsResponse.parse(r.body);
}

/** The events after `cursor`, all pages. */
async function since(cursor: number, query = ''): Promise<ListEventsResponse['data']> {
  const out: ListEventsResponse['data'] = [];
  for (let i = 0; i < 100; i++) {
    const page = await events(`?after=${cursor}${query}`);
    out.push(...page.data);
    cursor = page.cursor;
    if (!page.has_more) return out;
  }
  throw new Error('more than 100 pages');
}

const end = async () => (await events('?last=1')).cursor;

describe('GET /events: one event per change, written with it', () => {
  it("records a release's life: created, updated (fields old → new, who), tracks, upload, submitted with codes, reviewed, delivered, live, taken down", async () => {
    const start = await end();
    const rel = await createRelease(s, token, { catalog_number: 'EVT-0001' });
    const created = await since(start);
    expect(created.map((e) => e.type)).toEqual(['release.created']);
    expect(created[0]).toMatchObject({
      release_id: rel.id,
      catalog_number: 'EVT-0001',
      account_id: expect.any(Number),
      actor: { kind: 'user', name: expect.any(String), request_id: expect.stringMatching(/^req_/) },
      data: { title: 'Northern Sky', type: 'single' },
    });

    let cursor = created[0]!.id;
    const patch = await api(s, token, 'PATCH', `/releases/${rel.id}/metadata`, { upc: '036000291452', title: 'Northern Sky (Edit)' });
    expect(patch.status).toBe(200);
    const updated = await since(cursor);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.type).toBe('release.updated');
    expect(updated[0]!.data).toEqual({
      changes: expect.arrayContaining([
        { field: 'upc', old: null, new: '036000291452' },
        { field: 'title', old: 'Northern Sky', new: 'Northern Sky (Edit)' },
      ]),
    });
    expect(updated[0]!.actor.request_id).toBe(patch.headers.get('x-request-id'));
    cursor = updated[0]!.id;

    await api(s, token, 'PATCH', `/releases/${rel.id}/delivery`, { release_date: daysFromNow(30) });
    const up = await upload(s, token, rel.id, validWav(), { filename: 'sky.wav' });
    await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [
      { title: 'Northern Sky', file_key: up.key, contributors: [{ name: 'Nina Vale', role: 'composer' }] },
    ]);
    const editing = await since(cursor);
    expect(editing.map((e) => e.type)).toEqual(['release.updated', 'upload.ready', 'release.tracks_changed']);
    expect(editing[0]!.data).toEqual({ changes: [{ field: 'delivery.release_date', old: null, new: daysFromNow(30) }] });
    expect(editing[1]!.data).toMatchObject({ key: up.key, filename: 'sky.wav', format: 'wav', size: validWav().length });
    expect(editing[2]!.data).toMatchObject({
      added: [{ track_id: expect.any(Number), disc: 1, position: 1, title: 'Northern Sky' }],
      removed: [],
      changed: [],
      changes: [],
    });
    cursor = editing.at(-1)!.id;

    // A write that changes nothing records nothing.
    expect((await api(s, token, 'PATCH', `/releases/${rel.id}/video`, {})).status).toBe(200);
    expect(await since(cursor)).toEqual([]);

    const sub = await api(s, token, 'POST', `/releases/${rel.id}/submit`, { notes: 'first' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    for (const step of ['approve', 'deliver', 'go-live', 'take-down']) {
      expect((await api(s, token, 'POST', `/_sandbox/releases/${rel.id}/${step}`, {})).status).toBe(200);
    }
    const life = await since(cursor);
    expect(life.map((e) => [e.type, 'from' in e.data ? e.data.from : null, 'to' in e.data ? e.data.to : null])).toEqual([
      ['release.submitted', 'draft', 'in_review'],
      ['release.approved', 'in_review', 'approved'],
      ['release.delivered', 'approved', 'delivered'],
      ['release.live', 'delivered', 'live'],
      ['release.taken_down', 'live', 'taken_down'],
    ]);
    // The UPC was given; the track's ISRC was assigned at submit, and the event says which.
    expect(life[0]!.data).toMatchObject({
      notes: 'first',
      assigned: { upc: null, isrcs: [{ track_id: expect.any(Number), isrc: expect.stringMatching(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/) }] },
    });
    // The whole history of the release, by filter.
    const history = await events(`?release_id=${rel.id}`);
    expect(history.data.map((e) => e.type)).toEqual([
      'release.created',
      'release.updated',
      'release.updated',
      'upload.ready',
      'release.tracks_changed',
      'release.submitted',
      'release.approved',
      'release.delivered',
      'release.live',
      'release.taken_down',
    ]);
    expect(new Set(history.data.map((e) => e.id)).size).toBe(history.data.length);
  });

  it('records rejections with their codes and notes, withdrawals, the edit back to a draft, tracks changed, and deletion', async () => {
    const rel = await submittableRelease(s, token);
    const tracks = (await api(s, token, 'GET', `/releases/${rel.id}/tracks`)).body;
    let cursor = await end();
    await api(s, token, 'POST', `/releases/${rel.id}/submit`, {});
    await api(s, token, 'POST', `/_sandbox/releases/${rel.id}/reject`, { codes: ['artwork_low_resolution'], notes: 'too small' });
    // Editing a rejected release makes it a draft: the event says so among the fields.
    await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [{ id: tracks[0].id, title: 'Southern Sky' }]);
    const got = await since(cursor);
    expect(got.map((e) => e.type)).toEqual(['release.submitted', 'release.rejected', 'release.tracks_changed']);
    expect(got[1]!.data).toEqual({ from: 'in_review', to: 'rejected', codes: ['artwork_low_resolution'], notes: 'too small' });
    expect(got[2]!.data).toMatchObject({
      changed: [{ track_id: tracks[0].id, changes: [{ field: 'title', old: 'Northern Sky', new: 'Southern Sky' }] }],
      changes: [{ field: 'status', old: 'rejected', new: 'draft' }],
    });
    cursor = got.at(-1)!.id;
    await api(s, token, 'POST', `/releases/${rel.id}/submit`, {});
    await api(s, token, 'POST', `/_sandbox/releases/${rel.id}/withdraw`, {});
    expect((await api(s, token, 'DELETE', `/releases/${rel.id}`)).status).toBe(200);
    const rest = await since(cursor);
    expect(rest.map((e) => e.type)).toEqual(['release.submitted', 'release.withdrawn', 'release.deleted']);
    expect(rest[2]).toMatchObject({ release_id: rel.id, data: { status: 'draft', title: 'Northern Sky' } });
    // A deleted release's history stays readable.
    expect((await events(`?release_id=${rel.id}`)).data.at(-1)!.type).toBe('release.deleted');
  });

  it('records nothing for a change that fails, a dry run, or a refused submit in a batch', async () => {
    const a = await createRelease(s, token, { catalog_number: 'EVT-FAIL' });
    const cursor = await end();
    // Refused: catalog number taken (409), bad field (422), a state conflict (409), a blocked submit (422), a dry run.
    expect(
      (
        await api(s, token, 'POST', '/releases', {
          type: 'single',
          title: 'X',
          artists: [{ name: 'A', role: 'primary' }],
          label: 'L',
          catalog_number: 'evt-fail',
        })
      ).status,
    ).toBe(409);
    expect((await api(s, token, 'PATCH', `/releases/${a.id}/metadata`, { genre: 'Not A Genre' })).status).toBe(422);
    expect((await api(s, token, 'POST', `/_sandbox/releases/${a.id}/approve`, {})).status).toBe(409);
    expect((await api(s, token, 'POST', `/releases/${a.id}/submit`, {})).status).toBe(422);
    expect((await api(s, token, 'POST', `/releases/${a.id}/submit`, { dry_run: true })).status).toBe(200);
    const ok = await submittableRelease(s, token);
    const before = await end();
    const batch = await api(s, token, 'POST', '/releases/submit', { release_ids: [a.id, ok.id] });
    expect(batch.body.data.map((r: { status: number }) => r.status)).toEqual([422, 200]);
    expect((await since(before)).map((e) => [e.type, e.release_id])).toEqual([['release.submitted', ok.id]]);
    // Between the failures and the batch only the second release's own making happened.
    expect((await since(cursor)).every((e) => e.release_id === ok.id)).toBe(true);
  });

  it('replays an idempotent write without a second event', async () => {
    const cursor = await end();
    const headers = { 'idempotency-key': 'evt-idem-1' };
    const first = await api(s, token, 'POST', '/releases', { type: 'single', title: 'Once', artists: [{ name: 'A', role: 'primary' }], label: 'L' }, headers);
    const again = await api(s, token, 'POST', '/releases', { type: 'single', title: 'Once', artists: [{ name: 'A', role: 'primary' }], label: 'L' }, headers);
    expect(again.body.id).toBe(first.body.id);
    expect((await since(cursor)).map((e) => e.type)).toEqual(['release.created']);
  });
});

describe('GET /events: reading', () => {
  it('pages in order with after and limit, filters by type and release, and gives the newest with last', async () => {
    const start = await end();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createRelease(s, token, { title: `Paged ${i}` }));
    const first = await events(`?after=${start}&limit=2`);
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await events(`?after=${first.cursor}&limit=2`);
    const third = await events(`?after=${second.cursor}&limit=2`);
    expect(third.has_more).toBe(false);
    const ids = [...first.data, ...second.data, ...third.data].map((e) => e.release_id);
    expect(ids).toEqual(made.map((r) => r.id));
    const empty = await events(`?after=${third.cursor}`);
    expect(empty).toEqual({ data: [], has_more: false, cursor: third.cursor });

    expect((await events(`?release_id=${made[2].id}`)).data.map((e) => e.release_id)).toEqual([made[2].id]);
    const deletes = await events('?type=release.deleted');
    expect(deletes.data.every((e) => e.type === 'release.deleted')).toBe(true);
    const last = await events('?last=2');
    expect(last.data.map((e) => e.release_id)).toEqual([made[3].id, made[4].id]);
    expect(last.cursor).toBe(last.data[1]!.id);
  });

  it('refuses bad queries with 400 naming the parameter', async () => {
    for (const [q, word] of [
      ['?after=-1', 'after'],
      ['?type=release.exploded', 'type'],
      ['?wait=31', 'wait'],
      ['?limit=0', 'limit'],
      ['?after=1&last=1', 'not both'],
    ] as const) {
      const r = await api(s, token, 'GET', `/events${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toContain(word);
    }
  });

  it('another account sees none of these events, whatever it asks', async () => {
    const other = s.tokens.artist;
    const mine = await createRelease(s, token, { title: 'Private' });
    const theirs = await events('?limit=500', other);
    expect(theirs.data.some((e) => e.release_id === mine.id)).toBe(false);
    expect((await events(`?release_id=${mine.id}`, other)).data).toEqual([]);
    expect((await events('?last=500', other)).data.every((e) => e.account_id === theirs.data[0]?.account_id)).toBe(true);
    // Its own changes are its own.
    const own = await createRelease(s, other, { title: 'Artist own', artists: [{ name: 'Nina Vale', role: 'primary' }] });
    const after = await events('?last=1', other);
    expect(after.data.map((e) => e.release_id)).toEqual([own.id]);
    expect((await events('?last=500')).data.some((e) => e.release_id === own.id)).toBe(false);
    // A long poll of one account is not answered by another's event.
    const cursor = (await events('?last=1', other)).cursor;
    const waiting = events(`?after=${cursor}&wait=1`, other);
    await createRelease(s, token, { title: 'Not for the artist' });
    expect((await waiting).data).toEqual([]);
  });
});

describe('GET /events: long poll', () => {
  it('answers as soon as an event commits, and empty with the same cursor when the wait ends', async () => {
    const cursor = await end();
    const t0 = performance.now();
    const waiting = events(`?after=${cursor}&wait=20`);
    // Nothing yet: the request is still open.
    const early = await Promise.race([waiting.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
    expect(early).toBe('waiting');
    const rel = await createRelease(s, token, { title: 'Woke the poll' });
    const page = await waiting;
    expect(page.data.map((e) => e.release_id)).toEqual([rel.id]);
    // Well before the 20 s it was allowed to wait (the event woke it).
    expect(performance.now() - t0).toBeLessThan(15_000);

    const quiet = await events(`?after=${page.cursor}&wait=1`);
    expect(quiet).toEqual({ data: [], has_more: false, cursor: page.cursor });
  });

  it("wakes for a filter's event only, and for a change made by another process on the same data directory", async () => {
    const rel = await createRelease(s, token, { title: 'Filtered' });
    const cursor = await end();
    const waiting = events(`?after=${cursor}&release_id=${rel.id}&wait=20`);
    await createRelease(s, token, { title: 'Someone else' });
    const second = await startTestServer({ dataDir: s.dataDir });
    try {
      // The second process shares the file: its write wakes the first process's poll.
      await api(second, token, 'PATCH', `/releases/${rel.id}/metadata`, { title: 'Filtered (other process)' });
      const page = await waiting;
      expect(page.data.map((e) => [e.type, e.release_id])).toEqual([['release.updated', rel.id]]);
    } finally {
      await second.close();
    }
  });

  it('settles a sandbox auto-review falling due during the wait, and wakes with its event', async () => {
    const auto = await startTestServer({ sandboxAutoReview: { outcome: 'approve', delayMs: 600 } });
    try {
      const t = auto.tokens.label;
      const rel = await submittableRelease(auto, t);
      const cursorRes = await api(auto, t, 'GET', '/events?last=1');
      await api(auto, t, 'POST', `/releases/${rel.id}/submit`, {});
      const page = await api(auto, t, 'GET', `/events?after=${cursorRes.body.cursor}&type=release.approved&wait=20`);
      expect(page.body.data.map((e: { type: string; actor: { kind: string } }) => [e.type, e.actor.kind])).toEqual([['release.approved', 'system']]);
    } finally {
      await auto.close();
    }
  });

  it('answers a waiting poll at once when the service stops', async () => {
    const svc = await startTestServer();
    const cursor = (await api(svc, svc.tokens.label, 'GET', '/events?last=1')).body.cursor;
    const waiting = api(svc, svc.tokens.label, 'GET', `/events?after=${cursor}&wait=30`);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    await svc.close();
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
