// Release endpoints over real HTTP against the real service (temp data dir, loopback only).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIsrc, checkUpc } from '../../src/codes/index.js';
import { ReleaseResource, SubmitReleaseResponse, UserResource } from '../../src/contract/index.js';
import { createRelease, daysFromNow, submittableRelease, validRelease } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let label: string;
let artist: string;

beforeAll(async () => {
  s = await startTestServer();
  label = s.tokens.label;
  artist = s.tokens.artist;
});
afterAll(async () => {
  await s.close();
});

describe('GET /me', () => {
  test('answers the token owner in the contract shape', async () => {
    const me = await api(s, label, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(UserResource.parse(me.body).kind).toBe('label');
    const a = await api(s, artist, 'GET', '/me');
    expect(a.body.kind).toBe('artist');
    expect(a.body.id).not.toBe(me.body.id);
  });
});

describe('create, read, list, delete', () => {
  test('POST /releases creates a draft with defaults (201), GET reads it back', async () => {
    const res = await api(s, label, 'POST', '/releases', validRelease);
    expect(res.status).toBe(201);
    const r = ReleaseResource.parse(res.body);
    expect(r.status).toBe('draft');
    expect(r.upc).toBeNull();
    expect(r.delivery.platforms).toBe('all');
    expect(r.tracks).toEqual([]);
    const got = await api(s, label, 'GET', `/releases/${r.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('a genre or language outside the lookups is 422 with its field path', async () => {
    const res = await api(s, label, 'POST', '/releases', { ...validRelease, genre: 'Not A Genre', language: 'xx' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields)).toEqual(expect.arrayContaining(['genre', 'language']));
  });

  test("an artist credit may name one of the caller's label-managed artists, and no other", async () => {
    const roster = await api(s, label, 'GET', '/preferences/label');
    const managed = roster.body.artists[0];
    expect(managed).toBeDefined();
    const ok = await api(s, label, 'POST', '/releases', { ...validRelease, artists: [{ name: managed.name, artist_id: managed.id, role: 'primary' }] });
    expect(ok.status).toBe(201);
    expect(ok.body.artists[0].artist_id).toBe(managed.id);
    const unknown = await api(s, label, 'POST', '/releases', { ...validRelease, artists: [{ name: 'X', artist_id: 999999, role: 'primary' }] });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.error.fields)).toEqual(['artists.0.artist_id']);
    const theirs = await api(s, artist, 'PATCH', `/releases/${(await createRelease(s, artist)).id}/metadata`, {
      artists: [{ name: managed.name, artist_id: managed.id, role: 'primary' }],
    });
    expect(theirs.status).toBe(422);
  });

  test('GET /releases filters by status, type and search (title, artist, upc) and pages', async () => {
    const tag = `Filter${Date.now()}`;
    const a = await createRelease(s, artist, { title: `${tag} One`, type: 'album' });
    const b = await createRelease(s, artist, { title: 'Other', artists: [{ name: `${tag} Person`, role: 'primary' }] });
    const c = await createRelease(s, artist, { title: 'Coded', upc: '036000291452' });
    const byTitle = await api(s, artist, 'GET', `/releases?search=${encodeURIComponent(tag.toLowerCase())}`);
    expect(byTitle.status).toBe(200);
    expect(byTitle.body.data.map((r: any) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(byTitle.body.data[0].tracks).toBeUndefined();
    const byUpc = await api(s, artist, 'GET', '/releases?search=036000291452');
    expect(byUpc.body.data.map((r: any) => r.id)).toEqual([c.id]);
    const albums = await api(s, artist, 'GET', '/releases?type=album');
    expect(albums.body.data.every((r: any) => r.type === 'album')).toBe(true);
    expect(albums.body.data.map((r: any) => r.id)).toContain(a.id);
    const drafts = await api(s, artist, 'GET', '/releases?status=in_review');
    expect(drafts.body.data).toEqual([]);
    // Paging: 3+ releases, 2 per page.
    const p1 = await api(s, artist, 'GET', '/releases?perPage=2&page=1');
    const p2 = await api(s, artist, 'GET', '/releases?perPage=2&page=2');
    expect(p1.body.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(p1.body.meta.total).toBeGreaterThanOrEqual(3);
    expect(p1.body.meta.total_pages).toBe(Math.ceil(p1.body.meta.total / 2));
    expect(p1.body.data).toHaveLength(2);
    const ids1 = p1.body.data.map((r: any) => r.id);
    expect(p2.body.data.some((r: any) => ids1.includes(r.id))).toBe(false);
    // LIKE wildcards are literal.
    const pct = await api(s, artist, 'GET', '/releases?search=%25');
    expect(pct.body.data).toEqual([]);
  });

  test('bad query values are 400, unknown query names are 400', async () => {
    for (const q of ['status=bogus', 'perPage=0', 'perPage=101', 'page=-1', 'page=abc', 'colour=red']) {
      const res = await api(s, label, 'GET', `/releases?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
    }
  });

  test('DELETE removes a draft; the id is then 404 and never reused', async () => {
    const r = await createRelease(s, label);
    const del = await api(s, label, 'DELETE', `/releases/${r.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toContain(String(r.id));
    expect((await api(s, label, 'GET', `/releases/${r.id}`)).status).toBe(404);
    expect((await api(s, label, 'DELETE', `/releases/${r.id}`)).status).toBe(404);
    const next = await createRelease(s, label);
    expect(next.id).toBeGreaterThan(r.id);
  });
});

describe('ownership', () => {
  test("another user's release is 404 on every endpoint, and stays unchanged", async () => {
    const r = await createRelease(s, label);
    const id = r.id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/releases/${id}`],
      ['DELETE', `/releases/${id}`],
      ['PATCH', `/releases/${id}/metadata`, { title: 'Stolen' }],
      ['PATCH', `/releases/${id}/delivery`, { price_tier: 'budget' }],
      ['PATCH', `/releases/${id}/video`, { enabled: true }],
      ['POST', `/releases/${id}/submit`, {}],
      ['GET', `/releases/${id}/tracks`],
      ['GET', `/releases/${id}/tracks/1`],
      ['POST', `/releases/${id}/tracks/upload-url`, { filename: 'a.wav', content_type: 'audio/wav', size: 10, sha256: 'a'.repeat(64) }],
      ['PUT', `/releases/${id}/tracks`, []],
      ['PATCH', `/releases/${id}/tracks/1/file`, { file_key: 'upl_x' }],
      ['POST', '/releases/validate/upc', { upc: '036000291452', release_id: id }],
      ['POST', '/releases/validate/isrc', { isrc: 'USSKG1912345', release_id: id }],
      ['POST', `/_sandbox/releases/${id}/approve`, {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(s, artist, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const after = await api(s, label, 'GET', `/releases/${id}`);
    expect(after.body).toEqual(r);
    const list = await api(s, artist, 'GET', '/releases?perPage=100');
    expect(list.body.data.map((x: any) => x.id)).not.toContain(id);
  });
});

describe('ownership through ids inside bodies', () => {
  test("another user's upload key, track id or label artist cannot be attached to your own release", async () => {
    const theirs = await submittableRelease(s, label);
    const theirKey = theirs.tracks[0].file.key;
    const theirTrack = theirs.tracks[0].id;
    const theirArtist = (await api(s, label, 'GET', '/preferences/label')).body.artists[0].id;
    const mine = await submittableRelease(s, artist);
    const myTrack = mine.tracks[0].id;
    const attempts: [string, string, unknown, string][] = [
      ['PUT', `/releases/${mine.id}/tracks`, [{ title: 'Taken', file_key: theirKey }], 'tracks.0.file_key'],
      ['PATCH', `/releases/${mine.id}/tracks/${myTrack}/file`, { file_key: theirKey }, 'file_key'],
      ['PUT', `/releases/${mine.id}/tracks`, [{ id: theirTrack, title: 'Moved' }], 'tracks.0.id'],
      ['PATCH', `/releases/${mine.id}/metadata`, { artists: [{ name: 'Lena Voss', artist_id: theirArtist, role: 'primary' }] }, 'artists.0.artist_id'],
    ];
    for (const [method, path, body, field] of attempts) {
      const res = await api(s, artist, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(Object.keys(res.body.error.fields)).toEqual([field]);
    }
    expect((await api(s, artist, 'GET', `/releases/${mine.id}`)).body).toEqual(mine);
    expect((await api(s, label, 'GET', `/releases/${theirs.id}`)).body).toEqual(theirs);
  });
});

describe('editing and the state machine', () => {
  test('PATCH metadata, delivery and video change only what is given', async () => {
    const r = await createRelease(s, label, { catalog_number: 'NLR-1' });
    const m = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'New Title', version: 'Acoustic', catalog_number: null, genre: 'pop' });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ title: 'New Title', version: 'Acoustic', catalog_number: null, genre: 'Pop', label: r.label });
    const d = await api(s, label, 'PATCH', `/releases/${r.id}/delivery`, {
      platforms: ['streaming_a', 'store_c'],
      territories: { mode: 'exclude', countries: ['KP'] },
      release_date: '2030-01-15',
      price_tier: 'front',
    });
    expect(d.status).toBe(200);
    expect(d.body.delivery).toEqual({
      platforms: ['streaming_a', 'store_c'],
      territories: { mode: 'exclude', countries: ['KP'] },
      release_date: '2030-01-15',
      preorder_date: null,
      price_tier: 'front',
    });
    const v = await api(s, label, 'PATCH', `/releases/${r.id}/video`, { enabled: true, content_id: { policy: 'block' } });
    expect(v.status).toBe(200);
    expect(v.body.video).toEqual({ enabled: true, art_tracks: false, content_id: { enabled: false, policy: 'block' } });
    expect(v.body.title).toBe('New Title');
  });

  test('unknown countries and platforms are 422 with paths', async () => {
    const r = await createRelease(s, label);
    const d = await api(s, label, 'PATCH', `/releases/${r.id}/delivery`, { platforms: ['nope'], territories: { mode: 'include', countries: ['XX'] } });
    expect(d.status).toBe(422);
    expect(Object.keys(d.body.error.fields).sort()).toEqual(['platforms.0', 'territories.countries.0']);
  });

  test('in review: every edit and delete is 409 naming the state; withdraw makes it a draft again', async () => {
    const r = await submittableRelease(s, label);
    const sub = await api(s, label, 'POST', `/releases/${r.id}/submit`, {});
    expect(sub.status).toBe(200);
    for (const [method, path, body] of [
      ['PATCH', `/releases/${r.id}/metadata`, { title: 'X' }],
      ['PATCH', `/releases/${r.id}/delivery`, { price_tier: 'mid' }],
      ['PATCH', `/releases/${r.id}/video`, { enabled: true }],
      ['PUT', `/releases/${r.id}/tracks`, []],
      ['DELETE', `/releases/${r.id}`, undefined],
      ['POST', `/releases/${r.id}/submit`, {}],
      ['POST', `/releases/${r.id}/tracks/upload-url`, { filename: 'a.wav', content_type: 'audio/wav', size: 10, sha256: 'a'.repeat(64) }],
    ] as const) {
      const res = await api(s, label, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.error.code).toBe('state_conflict');
      expect(res.body.error.message).toContain('in_review');
    }
    const w = await api(s, label, 'POST', `/_sandbox/releases/${r.id}/withdraw`, {});
    expect(w.status).toBe(200);
    expect(w.body.status).toBe('draft');
    expect(w.body.submitted_at).toBeNull();
    expect((await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Back To Work' })).status).toBe(200);
  });

  test('POST /releases/{id}/withdraw: the owner takes a release in review back to a draft, nothing else', async () => {
    const r = await submittableRelease(s, label);
    expect((await api(s, label, 'POST', `/releases/${r.id}/withdraw`, {})).status).toBe(409);
    const sub = await api(s, label, 'POST', `/releases/${r.id}/submit`, {});
    expect(sub.body.release.status).toBe('in_review');
    // Another account's release is not there for it.
    expect((await api(s, artist, 'POST', `/releases/${r.id}/withdraw`, {})).status).toBe(404);
    expect((await api(s, label, 'GET', `/releases/${r.id}`)).body.status).toBe('in_review');
    const w = await api(s, label, 'POST', `/releases/${r.id}/withdraw`);
    expect(w.status).toBe(200);
    const back = ReleaseResource.parse(w.body);
    expect(back).toMatchObject({ status: 'draft', submitted_at: null, upc: sub.body.release.upc });
    expect((await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Northern Sky' })).status).toBe(200);
    // Only from review: a second one is a state conflict naming the state.
    const again = await api(s, label, 'POST', `/releases/${r.id}/withdraw`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'state_conflict', details: { status: 'draft' } });
  });

  test('the full path: approve, deliver, go live, take down; rejected edits go back to draft', async () => {
    const r = await submittableRelease(s, label);
    await api(s, label, 'POST', `/releases/${r.id}/submit`, {});
    expect((await api(s, label, 'POST', `/_sandbox/releases/${r.id}/deliver`, {})).status).toBe(409);
    const ap = await api(s, label, 'POST', `/_sandbox/releases/${r.id}/approve`, {});
    expect(ap.body.status).toBe('approved');
    expect((await api(s, label, 'POST', `/_sandbox/releases/${r.id}/withdraw`, {})).status).toBe(409);
    const dl = await api(s, label, 'POST', `/_sandbox/releases/${r.id}/deliver`, {});
    expect(dl.body.status).toBe('delivered');
    // Delivered: metadata may be corrected, but UPC and label never change, nothing is deleted.
    expect((await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { genre: 'Rock' })).status).toBe(200);
    const upc = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { upc: '036000291452' });
    expect(upc.status).toBe(409);
    expect(upc.body.error.message).toContain('delivered');
    expect((await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { label: 'Other Label' })).status).toBe(409);
    // The same UPC written another way (as EAN-13, with spaces) is no change: a client that sends
    // the whole form back is not refused.
    const same = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { upc: `0 ${dl.body.upc}`, label: dl.body.label, genre: 'Rock' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.upc).toBe(dl.body.upc);
    expect((await api(s, label, 'DELETE', `/releases/${r.id}`)).status).toBe(409);
    expect((await api(s, label, 'PUT', `/releases/${r.id}/tracks`, [])).status).toBe(409);
    const live = await api(s, label, 'POST', `/_sandbox/releases/${r.id}/go-live`, {});
    expect(live.body.status).toBe('live');
    const td = await api(s, label, 'POST', `/_sandbox/releases/${r.id}/take-down`, {});
    expect(td.body.status).toBe('taken_down');
    const ro = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { genre: 'Pop' });
    expect(ro.status).toBe(409);
    expect(ro.body.error.message).toContain('taken_down');

    const r2 = await submittableRelease(s, label);
    await api(s, label, 'POST', `/releases/${r2.id}/submit`, {});
    const bad = await api(s, label, 'POST', `/_sandbox/releases/${r2.id}/reject`, { codes: [] });
    expect(bad.status).toBe(422);
    const rej = await api(s, label, 'POST', `/_sandbox/releases/${r2.id}/reject`, {
      codes: ['artwork_low_resolution', 'metadata_style'],
      notes: 'Cover is 1400 px.',
    });
    expect(rej.status).toBe(200);
    expect(rej.body.status).toBe('rejected');
    expect(rej.body.review).toMatchObject({ codes: ['artwork_low_resolution', 'metadata_style'], notes: 'Cover is 1400 px.' });
    expect((await api(s, label, 'POST', `/releases/${r2.id}/submit`, {})).status).toBe(409);
    const edited = await api(s, label, 'PATCH', `/releases/${r2.id}/metadata`, { title: 'Northern Sky' });
    expect(edited.body.status).toBe('draft');
    expect(edited.body.review.codes).toEqual(['artwork_low_resolution', 'metadata_style']);
    const again = await api(s, label, 'POST', `/releases/${r2.id}/submit`, {});
    expect(again.status).toBe(200);
    expect(again.body.release.review).toBeNull();
  });
});

describe('submit', () => {
  test('blocking problems: 422 submit_blocked listing every problem at once, nothing changes', async () => {
    const r = await createRelease(s, label, {
      title: 'Song feat. Someone (Official)',
      artists: [
        { name: 'A & B', role: 'primary' },
        { name: 'Sleep Music', role: 'primary' },
        { name: 'A & B', role: 'featuring' },
      ],
      genre: null,
      upc: '036000291453',
    });
    await api(s, label, 'PATCH', `/releases/${r.id}/delivery`, { release_date: daysFromNow(3), preorder_date: daysFromNow(5) });
    const res = await api(s, label, 'POST', `/releases/${r.id}/submit`, {});
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('submit_blocked');
    const codes = res.body.error.problems.map((p: any) => p.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'required',
        'title_has_featuring',
        'title_has_marketing_words',
        'artist_several_people',
        'artist_name_generic',
        'artist_featured_and_primary',
        'upc_invalid',
        'no_tracks',
        'preorder_not_before_release',
        'release_date_soon',
      ]),
    );
    for (const p of res.body.error.problems) {
      expect(typeof p.path).toBe('string');
      expect(typeof p.message).toBe('string');
      expect(['error', 'warning']).toContain(p.severity);
    }
    expect(res.body.error.problems.find((p: any) => p.code === 'required').path).toBe('genre');
    const after = await api(s, label, 'GET', `/releases/${r.id}`);
    expect(after.body.status).toBe('draft');
    expect(after.body.submitted_at).toBeNull();
  });

  test('dry run reports every problem with 200 and changes nothing', async () => {
    const r = await createRelease(s, label);
    const res = await api(s, label, 'POST', `/releases/${r.id}/submit`, { dry_run: true });
    expect(res.status).toBe(200);
    expect(res.body.submitted).toBe(false);
    expect(res.body.problems.map((p: any) => p.code)).toEqual(expect.arrayContaining(['no_tracks', 'required']));
    expect((await api(s, label, 'GET', `/releases/${r.id}`)).body.status).toBe('draft');
  });

  test('success: in_review, submitted_at set, UPC and ISRC assigned with valid check digits, warnings returned', async () => {
    const r = await submittableRelease(s, label, { title: 'NORTHERN SKY' });
    const res = await api(s, label, 'POST', `/releases/${r.id}/submit`, { notes: 'first one' });
    expect(res.status).toBe(200);
    const body = SubmitReleaseResponse.parse(res.body);
    expect(body.submitted).toBe(true);
    expect(body.release.status).toBe('in_review');
    expect(body.release.submitted_at).not.toBeNull();
    expect(body.release.submission_notes).toBe('first one');
    expect((await api(s, label, 'GET', `/releases/${r.id}`)).body.submission_notes).toBe('first one');
    expect(body.problems.map((p) => p.code)).toContain('title_all_caps');
    expect(body.problems.every((p) => p.severity === 'warning')).toBe(true);
    const upc = checkUpc(body.release.upc!);
    expect(upc.valid).toBe(true);
    const isrc = body.release.tracks![0]!.isrc!;
    expect(checkIsrc(isrc, { currentYear: new Date().getUTCFullYear() }).valid).toBe(true);
    // A second release gets a different code.
    const r2 = await submittableRelease(s, label);
    const res2 = await api(s, label, 'POST', `/releases/${r2.id}/submit`, {});
    expect(res2.body.release.submission_notes).toBeNull();
    expect(res2.body.release.upc).not.toBe(body.release.upc);
    expect(res2.body.release.tracks[0].isrc).not.toBe(isrc);
  });

  test('a name joined with "&" is one act when the label manages it, several people otherwise', async () => {
    const r = await createRelease(s, label, { title: 'Bridge Over Water', artists: [{ name: 'Simon & Garfunkel', role: 'primary' }] });
    const several = async () =>
      (await api(s, label, 'POST', `/releases/${r.id}/submit`, { dry_run: true })).body.problems.filter((p: any) => p.code === 'artist_several_people');
    expect(await several()).toHaveLength(1);
    const added = await api(s, label, 'POST', '/preferences/label/submit', { artists: [{ name: 'Simon & Garfunkel' }] });
    expect(added.status).toBe(200);
    expect(await several()).toEqual([]);
  });

  test("a UPC another of the user's releases holds blocks the submit", async () => {
    const first = await createRelease(s, artist, { upc: '0 12345 67890 5' });
    expect(first.upc).toBe('012345678905');
    const r = await submittableRelease(s, artist, { upc: '0012345678905' });
    const res = await api(s, artist, 'POST', `/releases/${r.id}/submit`, {});
    expect(res.status).toBe(422);
    const p = res.body.error.problems.find((x: any) => x.code === 'upc_in_use');
    expect(p.message).toContain(String(first.id));
  });
});

describe('conditional release writes (If-Match with the ETag of GET /releases/{id})', () => {
  test('metadata, delivery, video and submit go through on the current tag, 412 on a stale one, and without one as before', async () => {
    const r = await submittableRelease(s, label);
    const read = async () => (await api(s, label, 'GET', `/releases/${r.id}`)).headers.get('etag')!;
    const first = await read();
    const meta = await api(s, label, 'PATCH', `/releases/${r.id}/metadata`, { title: 'Tagged' }, { 'if-match': first });
    expect(meta.status).toBe(200);
    // Based on the read before that change: refused, nothing written.
    for (const [method, path, body] of [
      ['PATCH', 'metadata', { title: 'Stale' }],
      ['PATCH', 'delivery', { price_tier: 'budget' }],
      ['PATCH', 'video', { enabled: true }],
      ['POST', 'submit', {}],
    ] as const) {
      const stale = await api(s, label, method, `/releases/${r.id}/${path}`, body, { 'if-match': first });
      expect(stale.status, path).toBe(412);
      expect(stale.body.error.code).toBe('precondition_failed');
    }
    const now = await api(s, label, 'GET', `/releases/${r.id}`);
    expect(now.body).toMatchObject({ title: 'Tagged', status: 'draft' });
    expect(now.body.video.enabled).toBe(false);
    // The tag of the release as the last write left it is the current one.
    const video = await api(s, label, 'PATCH', `/releases/${r.id}/video`, { enabled: true }, { 'if-match': now.headers.get('etag')! });
    expect(video.status).toBe(200);
    const submitted = await api(s, label, 'POST', `/releases/${r.id}/submit`, {}, { 'if-match': await read() });
    expect(submitted.status).toBe(200);
    expect(submitted.body.release.status).toBe('in_review');
    expect((await api(s, label, 'PATCH', `/releases/${r.id}/video`, { enabled: false })).status).toBe(409);
  });
});

describe('validate upc / isrc', () => {
  test('UPC: check digit, normalization, uniqueness among own releases except release_id', async () => {
    const ok = await api(s, label, 'POST', '/releases/validate/upc', { upc: '0-36000-29145-2' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: 'upc', valid: true, normalized: '036000291452' });
    const bad = await api(s, label, 'POST', '/releases/validate/upc', { upc: '036000291453' });
    expect(bad.body.valid).toBe(false);
    expect(bad.body.problems[0]).toMatchObject({ code: 'bad_check_digit', severity: 'error' });
    expect(bad.body.problems[0].hint).toContain('2');
    const holder = await createRelease(s, label, { upc: '5901234123457' });
    const taken = await api(s, label, 'POST', '/releases/validate/upc', { upc: '05901234123457' });
    expect(taken.body.valid).toBe(false);
    expect(taken.body.problems[0]).toMatchObject({ code: 'upc_in_use', message: expect.stringContaining(`release ${holder.id} `) });
    const own = await api(s, label, 'POST', '/releases/validate/upc', { upc: '5901234123457', release_id: holder.id });
    expect(own.body.valid).toBe(true);
    // Another user may hold the same code: uniqueness is per user.
    expect((await api(s, artist, 'POST', '/releases/validate/upc', { upc: '5901234123457' })).body.valid).toBe(true);
  });

  test('ISRC: format, warnings, duplicates inside a release', async () => {
    const ok = await api(s, label, 'POST', '/releases/validate/isrc', { isrc: 'us-skg-19-12345' });
    expect(ok.body).toMatchObject({ kind: 'isrc', valid: true, normalized: 'USSKG1912345', display: 'US-SKG-19-12345' });
    const bad = await api(s, label, 'POST', '/releases/validate/isrc', { isrc: 'US-SKG-19-1234' });
    expect(bad.body.valid).toBe(false);
    const r = await submittableRelease(s, label);
    await api(s, label, 'PUT', `/releases/${r.id}/tracks`, [{ id: r.tracks[0].id, title: 'Northern Sky', isrc: 'USSKG1912345' }]);
    const dup = await api(s, label, 'POST', '/releases/validate/isrc', { isrc: 'USSKG1912345', release_id: r.id });
    expect(dup.body.valid).toBe(false);
    expect(dup.body.problems.at(-1)).toMatchObject({ code: 'isrc_duplicate', message: expect.stringContaining(`track ${r.tracks[0].id} `) });
    const self = await api(s, label, 'POST', '/releases/validate/isrc', { isrc: 'USSKG1912345', release_id: r.id, track_id: r.tracks[0].id });
    expect(self.body.valid).toBe(true);
  });
});

describe('idempotency', () => {
  test('same key and body replays the first response; a different body is 422', async () => {
    const key = `k-${Date.now()}`;
    const first = await api(s, label, 'POST', '/releases', validRelease, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await api(s, label, 'POST', '/releases', validRelease, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await api(s, label, 'GET', `/releases?perPage=100`);
    expect(list.body.data.filter((r: any) => r.id === first.body.id)).toHaveLength(1);
    expect(list.body.data.filter((r: any) => r.created_at === first.body.created_at && r.title === validRelease.title)).toHaveLength(1);
    const other = await api(s, label, 'POST', '/releases', { ...validRelease, title: 'Different' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    // Keys are per user: the artist may use the same key for its own request.
    const theirs = await api(s, artist, 'POST', '/releases', validRelease, { 'idempotency-key': key });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  test('an error answer is replayed too (submit_blocked stays the same)', async () => {
    const r = await createRelease(s, label);
    const key = `submit-${r.id}`;
    const a = await api(s, label, 'POST', `/releases/${r.id}/submit`, {}, { 'idempotency-key': key });
    const b = await api(s, label, 'POST', `/releases/${r.id}/submit`, {}, { 'idempotency-key': key });
    expect(a.status).toBe(422);
    expect(b.status).toBe(422);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.error.problems).toEqual(a.body.error.problems);
  });
});
