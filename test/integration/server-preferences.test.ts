// The seven preference endpoints over HTTP against the real service: artist preferences, label
// preferences, label-managed artists, ownership and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededArtistDirectory } from '../../src/server/artists/seeded.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { addLabelAccount } from './prefs-fixtures.js';

let server: TestServer;
let label: string;
let artist: string;
let otherLabel: string;
const dir = new SeededArtistDirectory();
const profile = (platform: 'streaming_a' | 'video_b' | 'store_c', name: string) => dir.findByName(platform, name)[0]!;

beforeAll(async () => {
  server = await startTestServer();
  label = server.tokens.label;
  artist = server.tokens.artist;
  otherLabel = addLabelAccount(server.dataDir, 'Other Label').token;
});
afterAll(async () => server?.close());

const get = (path: string, t: string | undefined) => api(server, t, 'GET', path);
const post = (path: string, body: unknown, t: string | undefined, headers?: Record<string, string>) => api(server, t, 'POST', path, body, headers);

describe('sandbox seed', () => {
  it('gives the sandbox label its roster, linked to directory profiles', async () => {
    const res = await get('/preferences/label', label);
    expect(res.status).toBe(200);
    expect(res.body.label).toEqual({
      name: 'Sandbox Records',
      default_p_line_owner: 'Sandbox Records',
      default_c_line_owner: 'Sandbox Records',
      default_genre: 'Pop',
      default_language: 'en',
    });
    const names = res.body.artists.map((a: any) => a.name);
    expect(names).toEqual(['Åsa Lindqvist', 'Glass Harbor', 'Kaito Nakamura', 'Lena Voss', 'The Paper Lanterns']);
    const lena = res.body.artists.find((a: any) => a.name === 'Lena Voss');
    expect(lena.platforms).toEqual(
      (['streaming_a', 'video_b', 'store_c'] as const).map((p) => ({ platform: p, mode: 'existing', profile: profile(p, 'Lena Voss') })),
    );
    // Kaito Nakamura has no channel on video service B: the seed chose "new profile" there.
    expect(res.body.artists.find((a: any) => a.name === 'Kaito Nakamura').platforms[1]).toEqual({ platform: 'video_b', mode: 'new', profile: null });
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 5, total_pages: 1 });
  });

  it('gives the other label nothing', async () => {
    const res = await get('/preferences/label', otherLabel);
    expect(res.status).toBe(200);
    expect(res.body.artists).toEqual([]);
    expect(res.body.label).toMatchObject({ name: 'Other Label', default_genre: null });
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 0, total_pages: 0 });
  });
});

describe('artist preferences', () => {
  it('start empty, then save per-platform choices from ids and pasted links', async () => {
    const before = await get('/preferences/artist', artist);
    expect(before).toMatchObject({ status: 200, body: { artist_name: 'Sandbox Artist', platforms: [], updated_at: null } });

    const mira = { streaming_a: profile('streaming_a', 'Mira Okafor'), store_c: profile('store_c', 'Mira Okafor') };
    const res = await post(
      '/preferences/artist/submit',
      {
        artist_name: 'Mira Okafor',
        platforms: [
          { platform: 'store_c', mode: 'existing', profile_id: `https://music.store-c.example/de/artist/mira-okafor/${mira.store_c.id}?l=en` },
          { platform: 'video_b', mode: 'new' },
          { platform: 'streaming_a', mode: 'existing', profile_id: mira.streaming_a.id },
        ],
      },
      artist,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Artist preferences saved/);

    const after = await get('/preferences/artist', artist);
    expect(after.body.artist_name).toBe('Mira Okafor');
    expect(after.body.platforms).toEqual([
      { platform: 'streaming_a', mode: 'existing', profile: mira.streaming_a },
      { platform: 'video_b', mode: 'new', profile: null },
      { platform: 'store_c', mode: 'existing', profile: mira.store_c },
    ]);
    expect(Date.parse(after.body.updated_at)).not.toBeNaN();
    expect((await get('/me', artist)).body.artist_name).toBe('Mira Okafor');

    // A partial submit changes only the platform it names.
    await post('/preferences/artist/submit', { platforms: [{ platform: 'video_b', mode: 'existing', profile_id: '@miraokafor' }] }, artist);
    const partial = await get('/preferences/artist', artist);
    expect(partial.body.platforms[1]).toEqual({ platform: 'video_b', mode: 'existing', profile: profile('video_b', 'Mira Okafor') });
    expect(partial.body.platforms[0]).toEqual(after.body.platforms[0]);
  });

  it('refuses every bad choice at once, and saves nothing', async () => {
    const before = (await get('/preferences/artist', artist)).body;
    const res = await post(
      '/preferences/artist/submit',
      {
        artist_name: 'Someone Else',
        platforms: [
          { platform: 'streaming_a', mode: 'existing', profile_id: 'https://open.streaming-a.example/track/4Z8W4fKeB5YxbusRsdQVPb' },
          { platform: 'store_c', mode: 'existing', profile_id: '999999999999' },
          { platform: 'video_b', mode: 'new', profile_id: '@lenavoss' },
        ],
      },
      artist,
    );
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toHaveLength(3);
    expect(res.body.error.fields['platforms.0.profile_id'][0]).toContain('points to a track');
    expect(res.body.error.fields['platforms.1.profile_id'][0]).toMatch(/store C has no artist 999999999999/);
    expect(res.body.error.fields['platforms.2.profile_id'][0]).toMatch(/must be absent with mode "new"/);

    const twice = await post(
      '/preferences/artist/submit',
      {
        platforms: [
          { platform: 'store_c', mode: 'new' },
          { platform: 'store_c', mode: 'existing', profile_id: profile('store_c', 'Lena Voss').id },
        ],
      },
      artist,
    );
    expect(twice.status).toBe(422);
    expect(twice.body.error.fields).toEqual({ 'platforms.1.platform': ['store_c is given more than once'] });
    expect((await get('/preferences/artist', artist)).body).toEqual(before);
  });

  it('checks the body shape', async () => {
    const missing = await post('/preferences/artist/submit', { platforms: [{ platform: 'streaming_a', mode: 'existing' }] }, artist);
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toHaveProperty(['platforms.0.profile_id']);
    const unknown = await post('/preferences/artist/submit', { platforms: [{ platform: 'radio_z', mode: 'new' }], colour: 'red' }, artist);
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.error.fields).sort()).toEqual(['colour', 'platforms.0.platform']);
    expect((await post('/preferences/artist/submit', '{oops', artist)).status).toBe(400);
  });

  it('belong to artist accounts: a label gets 403', async () => {
    for (const res of [await get('/preferences/artist', label), await post('/preferences/artist/submit', {}, label)]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(res.body.error.message).toContain('/preferences/label');
    }
  });

  it('GET /preferences/artists lists the artist account itself', async () => {
    const res = await get('/preferences/artists', artist);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ name: 'Mira Okafor', source: 'self', release_count: expect.any(Number) });
    expect(res.body[0].platforms).toHaveLength(3);
  });
});

describe('label preferences', () => {
  it('an artist account gets 403 on every label endpoint', async () => {
    const calls = [
      get('/preferences/label', artist),
      post('/preferences/label/submit', {}, artist),
      get('/preferences/label/artist/1', artist),
      post('/preferences/label/artist/remove', { artist_id: 1 }, artist),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/label preferences belong to label accounts/);
    }
  });

  it('submit saves settings and adds artists; re-running it changes nothing', async () => {
    const body = {
      name: 'Second Label Records',
      default_genre: 'hip-hop/rap',
      default_language: 'DE',
      default_p_line_owner: 'Second Label Records',
      artists: [
        { name: 'Zoë Brandt', platforms: [{ platform: 'streaming_a', mode: 'existing', profile_id: profile('streaming_a', 'Zoë Brandt').url }] },
        { name: 'Nobody Yet', platforms: [{ platform: 'store_c', mode: 'new' }] },
      ],
    };
    const first = await post('/preferences/label/submit', body, otherLabel);
    expect(first).toMatchObject({ status: 200, body: { message: 'Label preferences saved: 2 artists added.' } });
    const again = await post('/preferences/label/submit', body, otherLabel);
    expect(again.body.message).toBe('Label preferences saved: 2 artists updated.');

    const res = await get('/preferences/label', otherLabel);
    expect(res.body.label).toEqual({
      name: 'Second Label Records',
      default_p_line_owner: 'Second Label Records',
      default_c_line_owner: null,
      default_genre: 'Hip-Hop/Rap',
      default_language: 'de',
    });
    expect((await get('/me', otherLabel)).body.label_name).toBe('Second Label Records');
    expect(res.body.artists.map((a: any) => a.name)).toEqual(['Nobody Yet', 'Zoë Brandt']);
    const zoe = res.body.artists[1];
    expect(zoe.platforms).toEqual([{ platform: 'streaming_a', mode: 'existing', profile: profile('streaming_a', 'Zoë Brandt') }]);
    expect(zoe.release_count).toBe(0);

    // Update by id: rename, add a platform, keep the other choice.
    const upd = await post(
      '/preferences/label/submit',
      { artists: [{ id: zoe.id, name: 'Zoë Brandt Trio', platforms: [{ platform: 'video_b', mode: 'new' }] }] },
      otherLabel,
    );
    expect(upd.body.message).toBe('Label preferences saved: 1 artist updated.');
    const one = await get(`/preferences/label/artist/${zoe.id}`, otherLabel);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: zoe.id, name: 'Zoë Brandt Trio', release_count: 0, created_at: zoe.created_at });
    expect(one.body.platforms.map((p: any) => `${p.platform}:${p.mode}`)).toEqual(['streaming_a:existing', 'video_b:new']);

    // null clears a default.
    await post('/preferences/label/submit', { default_genre: null }, otherLabel);
    expect((await get('/preferences/label', otherLabel)).body.label.default_genre).toBeNull();
  });

  it('refuses unknown genres, languages and profiles together, saving nothing', async () => {
    const before = (await get('/preferences/label', otherLabel)).body;
    const res = await post(
      '/preferences/label/submit',
      {
        default_genre: 'Polka Fusion',
        default_language: 'xx',
        artists: [{ name: 'New One', platforms: [{ platform: 'video_b', mode: 'existing', profile_id: 'https://video-b.example/watch?v=abc' }] }],
      },
      otherLabel,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['artists.0.platforms.0.profile_id', 'default_genre', 'default_language']);
    expect(res.body.error.fields['artists.0.platforms.0.profile_id'][0]).toContain('points to a video');
    expect((await get('/preferences/label', otherLabel)).body).toEqual(before);
  });

  it("another label's artist is 404 where it is acted on, 422 where a body refers to it, and changes nothing", async () => {
    const mine = (await get('/preferences/label', label)).body.artists[0];
    const theirs = (await get('/preferences/label', otherLabel)).body.artists[0];
    expect((await get(`/preferences/label/artist/${mine.id}`, otherLabel)).status).toBe(404);
    expect((await get(`/preferences/label/artist/${theirs.id}`, label)).status).toBe(404);
    const upd = await post('/preferences/label/submit', { artists: [{ id: mine.id, name: 'Hijacked' }] }, otherLabel);
    // Referred to inside a body: a wrong field, as an unknown artist_id of a release's credit is.
    expect(upd.status).toBe(422);
    expect(upd.body.error.fields['artists.0.id'][0]).toMatch(/you manage no artist/);
    const rm = await post('/preferences/label/artist/remove', { artist_id: mine.id }, otherLabel);
    expect(rm.status).toBe(404);
    expect((await get(`/preferences/label/artist/${mine.id}`, label)).body.name).toBe(mine.name);
    expect((await get('/preferences/artists', otherLabel)).body.map((a: any) => a.id)).not.toContain(mine.id);
  });

  it('release_count counts the label releases that credit the artist by id', async () => {
    const [asa, glass] = (await get('/preferences/label', label)).body.artists;
    const credit = (a: any, role = 'primary') => ({ name: a.name, artist_id: a.id, role });
    const make = (title: string, artists: unknown[]) => post('/releases', { type: 'single', title, artists, label: 'Sandbox Records' }, label);
    expect((await make('Northern Sky', [credit(asa)])).status).toBe(201);
    expect((await make('Harbor Lights', [credit(glass), credit(asa, 'featuring')])).status).toBe(201);
    expect((await make('Only a Name', [{ name: asa.name, role: 'primary' }])).status).toBe(201);
    // An id has one type: the integer the answers carry, never its text.
    const asText = await make('As Text', [{ ...credit(asa), artist_id: String(asa.id) }]);
    expect([asText.status, Object.keys(asText.body.error.fields)]).toEqual([422, ['artists.0.artist_id']]);
    expect((await get(`/preferences/label/artist/${asa.id}`, label)).body.release_count).toBe(2);
    expect((await get(`/preferences/label/artist/${glass.id}`, label)).body.release_count).toBe(1);
    const listed = (await get('/preferences/label?search=glass', label)).body.artists[0];
    expect(listed.release_count).toBe(1);
    // GET /preferences/artists (`label artists list`) gives every artist the same count as its own GET.
    const all = (await get('/preferences/artists', label)).body as any[];
    expect(all.find((a) => a.id === asa.id).release_count).toBe(2);
    expect(all.find((a) => a.id === glass.id).release_count).toBe(1);
    for (const a of all) expect(a.release_count).toBe((await get(`/preferences/label/artist/${a.id}`, label)).body.release_count);
    expect(all.filter((a) => a.release_count === 0).length).toBeGreaterThan(0);
  });

  it.each(['abc', '0', '-1', '1.5', '99999999', '1e3'])('GET /preferences/label/artist/%s is 404', async (id) => {
    const res = await get(`/preferences/label/artist/${id}`, label);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('paging and search of label artists', () => {
  let names: string[];
  beforeAll(async () => {
    // 23 artists on the second label (it has 2 already): enough for three pages of 10.
    const artists = Array.from({ length: 21 }, (_, i) => ({ name: `Paging Artist ${String(i + 1).padStart(2, '0')}` }));
    const res = await post('/preferences/label/submit', { artists }, otherLabel);
    expect(res.status).toBe(200);
    names = (await get('/preferences/label?perPage=100', otherLabel)).body.artists.map((a: any) => a.name);
    expect(names).toHaveLength(23);
  });

  it('pages with page and perPage, and reports the totals', async () => {
    const p1 = await get('/preferences/label?page=1&perPage=10', otherLabel);
    const p3 = await get('/preferences/label?page=3&perPage=10', otherLabel);
    expect(p1.body.meta).toEqual({ page: 1, per_page: 10, total: 23, total_pages: 3 });
    expect(p3.body.artists.map((a: any) => a.name)).toEqual(names.slice(20));
    const beyond = await get('/preferences/label?page=9&perPage=10', otherLabel);
    expect(beyond.status).toBe(200);
    expect(beyond.body.artists).toEqual([]);
    expect(beyond.body.meta).toEqual({ page: 9, per_page: 10, total: 23, total_pages: 3 });
    expect((await get('/preferences/label', otherLabel)).body.artists).toHaveLength(20);
  });

  it('accepts the legacy limit, with perPage winning when both are given', async () => {
    const legacy = await get('/preferences/label?limit=5&page=2', otherLabel);
    expect(legacy.body.meta).toMatchObject({ page: 2, per_page: 5, total_pages: 5 });
    expect(legacy.body.artists.map((a: any) => a.name)).toEqual(names.slice(5, 10));
    expect((await get('/preferences/label?limit=5&perPage=7', otherLabel)).body.meta.per_page).toBe(7);
  });

  it.each(['page=0', 'page=-1', 'perPage=0', 'perPage=101', 'limit=101', 'limit=abc', 'page=1.5', 'sort=name'])('refuses %s with 400', async (query) => {
    const res = await get(`/preferences/label?${query}`, otherLabel);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.message).toContain(query.split('=')[0]);
  });

  it('searches names case- and accent-insensitively', async () => {
    const res = await get(`/preferences/label?search=${encodeURIComponent('ZOE')}`, otherLabel);
    expect(res.body.artists.map((a: any) => a.name)).toEqual(['Zoë Brandt Trio']);
    const paging = await get('/preferences/label?search=paging&perPage=4&page=6', otherLabel);
    expect(paging.body.meta).toEqual({ page: 6, per_page: 4, total: 21, total_pages: 6 });
    expect(paging.body.artists).toHaveLength(1);
    const seeded = await get(`/preferences/label?search=${encodeURIComponent('åsa')}`, label);
    expect(seeded.body.artists.map((a: any) => a.name)).toEqual(['Åsa Lindqvist']);
  });
});

describe('removing label artists', () => {
  it('removes by {artist_id} and by a bare id, never by its text; a second removal is 404', async () => {
    const list = (await get('/preferences/label?search=paging&perPage=3', otherLabel)).body.artists;
    const [a, b, c] = list;

    const byObject = await post('/preferences/label/artist/remove', { artist_id: a.id }, otherLabel);
    expect(byObject).toMatchObject({ status: 200 });
    expect(byObject.body.message).toContain(a.name);
    const byNumber = await post('/preferences/label/artist/remove', b.id, otherLabel);
    expect(byNumber.status).toBe(200);
    const byString = await post('/preferences/label/artist/remove', JSON.stringify(String(c.id)), otherLabel);
    expect(byString.status).toBe(422);
    expect((await post('/preferences/label/artist/remove', c.id, otherLabel)).status).toBe(200);

    for (const gone of [a, b, c]) {
      expect((await get(`/preferences/label/artist/${gone.id}`, otherLabel)).status).toBe(404);
      expect((await post('/preferences/label/artist/remove', gone.id, otherLabel)).status).toBe(404);
    }
    expect((await get('/preferences/label?search=paging', otherLabel)).body.meta.total).toBe(18);
  });

  it('refuses a malformed body, and answers 404 for ids that name nothing', async () => {
    expect((await post('/preferences/label/artist/remove', { id: 3 }, otherLabel)).status).toBe(422);
    expect((await post('/preferences/label/artist/remove', [3], otherLabel)).status).toBe(422);
    expect((await post('/preferences/label/artist/remove', {}, otherLabel)).status).toBe(422);
    for (const id of ['abc', -4, 0, 'x'.repeat(64), '3', 2.5, 999999]) {
      const res = await post('/preferences/label/artist/remove', { artist_id: id }, otherLabel);
      expect(res.status, String(id)).toBe(id === 999999 ? 404 : 422);
    }
  });

  it('replays a removal sent again with the same Idempotency-Key', async () => {
    const [victim] = (await get('/preferences/label?search=paging&perPage=1', otherLabel)).body.artists;
    const headers = { 'idempotency-key': `remove-${victim.id}` };
    const first = await post('/preferences/label/artist/remove', victim.id, otherLabel, headers);
    const replay = await post('/preferences/label/artist/remove', victim.id, otherLabel, headers);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('a seeded artist removed stays removed after a restart', async () => {
    const lena = (await get('/preferences/label?search=lena', label)).body.artists[0];
    expect((await post('/preferences/label/artist/remove', { artist_id: lena.id }, label)).status).toBe(200);
    const restarted = await startTestServer({ dataDir: server.dataDir });
    try {
      const res = await api(restarted, restarted.tokens.label, 'GET', '/preferences/label');
      expect(res.body.artists.map((a: any) => a.name)).not.toContain('Lena Voss');
      expect(res.body.meta.total).toBe(4);
    } finally {
      await restarted.close();
    }
  });
});

describe('authentication', () => {
  it.each([
    ['GET', '/preferences/artist'],
    ['POST', '/preferences/artist/submit'],
    ['GET', '/preferences/artists'],
    ['GET', '/preferences/label'],
    ['POST', '/preferences/label/submit'],
    ['GET', '/preferences/label/artist/1'],
    ['POST', '/preferences/label/artist/remove'],
  ])('%s %s needs a valid token', async (method, path) => {
    for (const t of [undefined, 'rd_not-a-real-token']) {
      const res = await api(server, t, method, path, method === 'POST' ? { artist_id: 1 } : undefined);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  });
});

describe('profiles saved before handles were on the wire', () => {
  it('read back with handle null, in the contract shape', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { join } = await import('node:path');
    const { LabelArtistResource } = await import('../../src/contract/resources.js');
    const me = (await get('/me', label)).body;
    const old = {
      platform: 'video_b',
      id: 'UCq3Vd9mX2kLp8RtYw4ZbN1c',
      name: 'Old Snapshot',
      url: 'https://video-b.example/channel/UCq3Vd9mX2kLp8RtYw4ZbN1c',
      image_url: null,
      followers: 12,
    };
    const db = new Database(join(server.dataDir, 'reldist.sqlite'));
    const id = Number(
      db
        .prepare('INSERT INTO label_artists (user_id, name, name_folded, platforms, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(
          me.id,
          'Old Snapshot',
          'old snapshot',
          JSON.stringify([{ platform: 'video_b', mode: 'existing', profile: old }]),
          '2026-01-01T00:00:00.000Z',
          '2026-01-01T00:00:00.000Z',
        ).lastInsertRowid,
    );
    db.close();
    const res = await get(`/preferences/label/artist/${id}`, label);
    expect(res.status).toBe(200);
    expect(res.body.platforms[0].profile).toEqual({ ...old, handle: null });
    expect(LabelArtistResource.parse(res.body)).toEqual(res.body);
  });
});

describe('a label artist removed while a submit naming it is under way', () => {
  it('the submit is 422 naming the artist and saves nothing, not a 500', async () => {
    // A directory that answers only when the test says so, like a slow platform API.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const waiting = new Promise<void>((r) => (asked = r));
    const gated = await startTestServer({
      artists: {
        search: (p, n, l) => dir.search(p, n, l),
        getByHandle: (p, h) => dir.getByHandle(p, h),
        async get(p, id) {
          asked();
          await gate;
          return dir.get(p, id);
        },
      },
    });
    try {
      const owner = addLabelAccount(gated.dataDir, 'Other Label').token;
      const get = (path: string) => api(gated, owner, 'GET', path);
      const post = (path: string, body: unknown) => api(gated, owner, 'POST', path, body);
      const added = await post('/preferences/label/submit', { artists: [{ name: 'Soon Gone' }] });
      expect(added.status).toBe(200);
      const gone = (await get('/preferences/label?search=soon%20gone')).body.artists[0];
      const submit = post('/preferences/label/submit', {
        artists: [
          { id: gone.id, name: 'Soon Gone Renamed' },
          { name: 'Newcomer', platforms: [{ platform: 'streaming_a', mode: 'existing', profile_id: profile('streaming_a', 'Lena Voss').id }] },
        ],
      });
      await waiting;
      expect((await post('/preferences/label/artist/remove', gone.id)).status).toBe(200);
      release();
      const res = await submit;
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.fields['artists.0.id'][0]).toMatch(/you manage no artist/);
      expect((await get('/preferences/label?search=newcomer')).body.artists).toEqual([]);
      expect(gated.errors).toEqual([]);
    } finally {
      release();
      await gated.close();
    }
  });
});
