// The four lookups over HTTP against the real service, and that the service validates against them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountryResource, LanguageResource, LookupPlatformsData } from '../../src/contract/resources.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const get = (path: string, token: string | undefined = server.tokens.artist) => api(server, token, 'GET', path);

describe('lookups', () => {
  it('GET /lookup/countries: ISO 3166-1 alpha-2 codes with English names', async () => {
    const res = await get('/lookup/countries');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(249);
    for (const c of res.body) expect(CountryResource.parse(c)).toEqual(c);
    expect(res.body).toContainEqual({ code: 'DE', name: 'Germany' });
    expect(res.body).toContainEqual({ code: 'US', name: 'United States' });
  });

  it('GET /lookup/languages: ISO 639-1 codes with English and native names', async () => {
    const res = await get('/lookup/languages');
    expect(res.status).toBe(200);
    for (const l of res.body) expect(LanguageResource.parse(l)).toEqual(l);
    expect(res.body).toContainEqual({ code: 'fr', name: 'French', native_name: 'Français' });
  });

  it('GET /lookup/genres: an array of strings', async () => {
    const res = await get('/lookup/genres');
    expect(res.status).toBe(200);
    expect(res.body).toContain('Hip-Hop/Rap');
    expect(res.body.every((g: unknown) => typeof g === 'string')).toBe(true);
  });

  it('GET /lookup/platforms: stores and the three artist platforms', async () => {
    const res = await get('/lookup/platforms', server.tokens.label);
    expect(res.status).toBe(200);
    expect(LookupPlatformsData.parse(res.body)).toEqual(res.body);
    expect(res.body.artist_platforms).toEqual([
      { id: 'streaming_a', name: 'Streaming service A' },
      { id: 'video_b', name: 'Video service B' },
      { id: 'store_c', name: 'Store C' },
    ]);
  });

  it.each(['/lookup/countries', '/lookup/languages', '/lookup/genres', '/lookup/platforms'])('%s needs a token and answers GET only', async (path) => {
    // (not get(path, undefined): a default parameter would fill the token back in)
    expect((await api(server, undefined, 'GET', path)).status).toBe(401);
    expect((await get(path, 'rd_wrong')).status).toBe(401);
    expect((await api(server, server.tokens.label, 'POST', path, {})).status).toBe(405);
  });

  it('the label default genre and language are checked against the lookups', async () => {
    const genres: string[] = (await get('/lookup/genres')).body;
    const languages: { code: string }[] = (await get('/lookup/languages')).body;
    const ok = await api(server, server.tokens.label, 'POST', '/preferences/label/submit', {
      default_genre: genres.at(-1),
      default_language: languages.at(-1)!.code,
    });
    expect(ok.status).toBe(200);
    const bad = await api(server, server.tokens.label, 'POST', '/preferences/label/submit', { default_genre: 'Not A Genre' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.default_genre[0]).toContain('/lookup/genres');
  });
});
