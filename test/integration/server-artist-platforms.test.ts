// The nine artist-platform endpoints over HTTP against the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededArtistDirectory } from '../../src/server/artists/seeded.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let token: string;
// The service's directory is generated from a fixed seed; the same generator tells the test
// which ids exist, the way a person would read them off the platform.
const dir = new SeededArtistDirectory();
const lena = {
  streaming_a: dir.findByName('streaming_a', 'Lena Voss')[0]!,
  video_b: dir.findByName('video_b', 'Lena Voss')[0]!,
  store_c: dir.findByName('store_c', 'Lena Voss')[0]!,
};

beforeAll(async () => {
  server = await startTestServer();
  token = server.tokens.label;
});
afterAll(async () => server?.close());

const get = (path: string, t: string | undefined = token) => api(server, t, 'GET', path);
const post = (path: string, body: unknown, t: string | undefined = token) => api(server, t, 'POST', path, body);
const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

describe('search endpoints', () => {
  it.each([
    ['/preferences/search-streaming-a', 'streaming_a'],
    ['/preferences/search-video-channel', 'video_b'],
    ['/preferences/search-store-c', 'store_c'],
  ] as const)('%s finds by name, accent-insensitively, best match first', async (path, platform) => {
    const res = await get(path + q({ q: 'asa lindqvist' }));
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual(dir.findByName(platform, 'Åsa Lindqvist')[0]);
    for (const r of res.body) {
      expect(r.platform).toBe(platform);
      expect(Object.keys(r).sort()).toEqual(['followers', 'handle', 'id', 'image_url', 'name', 'platform', 'url']);
      // Channels carry their @handle; the other platforms have none.
      if (platform === 'video_b') expect(r.handle).toMatch(/^@[A-Za-z0-9][A-Za-z0-9._-]{2,29}$/);
      else expect(r.handle).toBeNull();
    }
  });

  it("a channel's handle resolves back to the channel", async () => {
    const channel = (await get('/preferences/search-video-channel' + q({ q: 'Lena Voss' }))).body[0];
    const res = await get('/preferences/get-video-channel' + q({ url: `https://video-b.example/${channel.handle}` }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(channel);
  });

  it('defaults to 10 results and honours limit up to 50', async () => {
    expect((await get('/preferences/search-streaming-a' + q({ q: 'a' }))).body).toHaveLength(10);
    expect((await get('/preferences/search-streaming-a' + q({ q: 'a', limit: '3' }))).body).toHaveLength(3);
    expect((await get('/preferences/search-streaming-a' + q({ q: 'a', limit: '50' }))).body).toHaveLength(50);
  });

  it.each([
    [{ q: 'a', limit: '51' }, 'limit'],
    [{ q: 'a', limit: '0' }, 'limit'],
    [{ q: 'a', limit: 'ten' }, 'limit'],
    [{ q: '' }, 'q'],
    [{}, 'q'],
    [{ q: 'a', name: 'b' }, 'name'],
  ])('refuses bad query %j with 400 naming %s', async (params, field) => {
    const res = await get('/preferences/search-store-c' + q(params as Record<string, string>));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.message).toContain(field);
  });

  it('answers an empty list for a name nobody has', async () => {
    const res = await get('/preferences/search-video-channel' + q({ q: 'Zzyzx Qwerty' }));
    expect(res).toMatchObject({ status: 200, body: [] });
  });

  it('POST /preferences/search/artist-platform groups results per platform, in the order asked', async () => {
    const res = await post('/preferences/search/artist-platform', { name: 'Lena Voss', platforms: ['store_c', 'streaming_a', 'store_c'], limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('Lena Voss');
    expect(res.body.results.map((r: any) => r.platform)).toEqual(['store_c', 'streaming_a']);
    expect(res.body.results[0].artists[0]).toEqual(lena.store_c);
    expect(res.body.results[1].artists[0]).toEqual(lena.streaming_a);
    for (const r of res.body.results) expect(r.artists.length).toBeLessThanOrEqual(2);

    const all = await post('/preferences/search/artist-platform', { name: 'lena voss' });
    expect(all.body.results.map((r: any) => r.platform)).toEqual(['streaming_a', 'video_b', 'store_c']);
  });

  it('POST /preferences/search/artist-platform validates its body', async () => {
    const bad = await post('/preferences/search/artist-platform', { name: 'x', platforms: ['radio_z'], limit: 500 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['limit', 'platforms.0']);
    expect((await post('/preferences/search/artist-platform', {})).body.error.fields).toHaveProperty('name');
    expect((await post('/preferences/search/artist-platform', [])).status).toBe(422);
  });
});

describe('link resolution endpoints', () => {
  it.each([
    ['/preferences/get-streaming-a-artist', `https://open.streaming-a.example/intl-de/artist/${lena.streaming_a.id}?si=abc123`, lena.streaming_a],
    ['/preferences/get-streaming-a-artist', `streaming-a:artist:${lena.streaming_a.id}`, lena.streaming_a],
    ['/preferences/get-streaming-a-artist', lena.streaming_a.id, lena.streaming_a],
    ['/preferences/get-video-channel', `https://www.video-b.example/channel/${lena.video_b.id}/videos`, lena.video_b],
    ['/preferences/get-video-channel', 'https://video-b.example/@LenaVoss', lena.video_b],
    ['/preferences/get-video-channel', '@lenavoss', lena.video_b],
    ['/preferences/get-store-c-artist', `music.store-c.example/gb/artist/lena-voss/${lena.store_c.id}/`, lena.store_c],
    ['/preferences/get-store-c-artist', `https://itunes.store-c.example/us/artist/lena-voss/id${lena.store_c.id}?uo=4`, lena.store_c],
  ])('%s resolves %s', async (path, url, expected) => {
    const res = await get(path + q({ url }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
  });

  it.each([
    ['/preferences/get-streaming-a-artist', `https://open.streaming-a.example/track/${lena.streaming_a.id}`, 'a track'],
    ['/preferences/get-streaming-a-artist', `https://open.streaming-a.example/album/${lena.streaming_a.id}?si=x`, 'an album'],
    ['/preferences/get-streaming-a-artist', `streaming-a:playlist:${lena.streaming_a.id}`, 'a playlist'],
    ['/preferences/get-video-channel', 'https://video-b.example/watch?v=dQw4w9WgXcQ', 'a video'],
    ['/preferences/get-store-c-artist', 'https://music.store-c.example/us/album/northern-sky/1440833098?i=1440833100', 'a track'],
    ['/preferences/get-store-c-artist', 'https://music.store-c.example/us/album/northern-sky/1440833098', 'an album'],
  ])('%s refuses %s as %s', async (path, url, kind) => {
    const res = await get(path + q({ url }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.message).toContain(`points to ${kind}`);
    expect(res.body.error.message).toMatch(/^url: /);
  });

  it('refuses a link of another platform, and a host of no platform', async () => {
    const other = await get('/preferences/get-store-c-artist' + q({ url: lena.streaming_a.url }));
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/streaming service A link, not a store C one/);
    const foreign = await get('/preferences/get-streaming-a-artist' + q({ url: 'https://example.com/artist/1' }));
    expect(foreign.status).toBe(400);
  });

  it('answers 404 for a well-formed id the platform does not have', async () => {
    const res = await get('/preferences/get-streaming-a-artist' + q({ url: `https://open.streaming-a.example/artist/${'Z'.repeat(22)}` }));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await get('/preferences/get-video-channel' + q({ url: '@nobody-here-at-all' }))).status).toBe(404);
  });

  it('requires url', async () => {
    const res = await get('/preferences/get-store-c-artist');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('url');
  });

  it('GET /preferences/artist-via-link resolves on the named platform and refuses a mismatch', async () => {
    const ok = await get('/preferences/artist-via-link' + q({ url: lena.video_b.url, platform: 'video_b' }));
    expect(ok).toMatchObject({ status: 200, body: lena.video_b });
    const mismatch = await get('/preferences/artist-via-link' + q({ url: lena.video_b.url, platform: 'store_c' }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toMatch(/video service B link, not a store C one/);
    expect((await get('/preferences/artist-via-link' + q({ url: lena.video_b.url }))).status).toBe(400);
    expect((await get('/preferences/artist-via-link' + q({ url: lena.video_b.url, platform: 'video_c' }))).status).toBe(400);
  });

  it('POST /preferences/artist/get-artist-via-url detects the platform, or checks the one given', async () => {
    for (const p of ['streaming_a', 'video_b', 'store_c'] as const) {
      const res = await post('/preferences/artist/get-artist-via-url', { url: `  ${lena[p].url}?utm_source=copy#x ` });
      expect(res).toMatchObject({ status: 200, body: lena[p] });
    }
    expect((await post('/preferences/artist/get-artist-via-url', { url: lena.store_c.id })).body).toEqual(lena.store_c);
    expect((await post('/preferences/artist/get-artist-via-url', { url: lena.store_c.url, platform: 'store_c' })).body).toEqual(lena.store_c);

    const track = await post('/preferences/artist/get-artist-via-url', { url: `https://open.streaming-a.example/track/${lena.streaming_a.id}` });
    expect(track.status).toBe(422);
    expect(track.body.error.code).toBe('validation_failed');
    expect(track.body.error.fields.url[0]).toContain('points to a track');

    const mismatch = await post('/preferences/artist/get-artist-via-url', { url: lena.store_c.url, platform: 'video_b' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.fields.url[0]).toMatch(/store C link, not a video service B one/);

    expect((await post('/preferences/artist/get-artist-via-url', { url: '' })).status).toBe(422);
    expect((await post('/preferences/artist/get-artist-via-url', { link: lena.store_c.url })).status).toBe(422);
    expect((await post('/preferences/artist/get-artist-via-url', '{"url":')).status).toBe(400);
    expect((await post('/preferences/artist/get-artist-via-url', { url: `store-c:artist:999999999999` })).status).toBe(404);
  });
});

describe('authentication', () => {
  it.each([
    ['GET', '/preferences/search-streaming-a?q=lena'],
    ['GET', '/preferences/search-video-channel?q=lena'],
    ['GET', '/preferences/search-store-c?q=lena'],
    ['GET', `/preferences/get-streaming-a-artist?url=${lena.streaming_a.id}`],
    ['GET', `/preferences/get-video-channel?url=${lena.video_b.id}`],
    ['GET', `/preferences/get-store-c-artist?url=${lena.store_c.id}`],
    ['GET', `/preferences/artist-via-link?url=${lena.store_c.id}&platform=store_c`],
    ['POST', '/preferences/search/artist-platform'],
    ['POST', '/preferences/artist/get-artist-via-url'],
  ])('%s %s needs a valid token', async (method, path) => {
    const body = method === 'POST' ? { name: 'x', url: 'x' } : undefined;
    for (const t of [undefined, 'rd_not-a-real-token']) {
      const res = await api(server, t, method, path, body);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  });

  it('works the same for an artist account', async () => {
    const res = await get('/preferences/search-store-c' + q({ q: 'Glass Harbor' }), server.tokens.artist);
    expect(res.status).toBe(200);
    expect(res.body[0].name).toBe('Glass Harbor');
  });
});
