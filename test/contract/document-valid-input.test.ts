// Values the document allows, generated from its own patterns and bounds, sent to the service: none
// may be refused, but for what the document cannot state (here: a profile that does not exist,
// 404). RELDIST_DOCUMENT_FUZZ_RUNS values per field (100 by default; 1000 for a measurement:
// 10,000 requests, 0 refused, where the document before had 4,007 refused).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadOpenApi } from '../helpers/contract-check.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimit: false });
});
afterAll(async () => {
  await s?.close();
});

const RUNS = Number(process.env.RELDIST_DOCUMENT_FUZZ_RUNS ?? 100);

it('document-valid values of every single-field rule are accepted (or name nothing: 404)', async () => {
  const doc = loadOpenApi() as any;
  const rel = await createRelease(s, s.tokens.label);
  const qp = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
  const body = (schema: string, name: string) => doc.components.schemas[schema].properties[name];
  const strings = (sch: any) =>
    fc.stringMatching(new RegExp(sch.pattern ?? '[\\s\\S]*')).filter((v) => v.length >= (sch.minLength ?? 0) && v.length <= (sch.maxLength ?? 1e9));
  const cases: [string, any, (v: string) => Promise<{ status: number; body: any }>][] = [
    ['search', qp('/releases', 'search'), (v) => api(s, s.tokens.label, 'GET', `/releases?search=${encodeURIComponent(v)}`)],
    ['catalog_number', qp('/releases', 'catalog_number'), (v) => api(s, s.tokens.label, 'GET', `/releases?catalog_number=${encodeURIComponent(v)}`)],
    ['q', qp('/preferences/search-streaming-a', 'q'), (v) => api(s, s.tokens.label, 'GET', `/preferences/search-streaming-a?q=${encodeURIComponent(v)}`)],
    [
      'url streaming_a',
      qp('/preferences/get-streaming-a-artist', 'url'),
      (v) => api(s, s.tokens.label, 'GET', `/preferences/get-streaming-a-artist?url=${encodeURIComponent(v)}`),
    ],
    [
      'url video_b',
      qp('/preferences/get-video-channel', 'url'),
      (v) => api(s, s.tokens.label, 'GET', `/preferences/get-video-channel?url=${encodeURIComponent(v)}`),
    ],
    [
      'url store_c',
      qp('/preferences/get-store-c-artist', 'url'),
      (v) => api(s, s.tokens.label, 'GET', `/preferences/get-store-c-artist?url=${encodeURIComponent(v)}`),
    ],
    ['url (body)', body('GetArtistViaUrlRequest', 'url'), (v) => api(s, s.tokens.label, 'POST', '/preferences/artist/get-artist-via-url', { url: v })],
    [
      'filename',
      body('CreateTrackUploadUrlRequest', 'filename'),
      (v) => api(s, s.tokens.label, 'POST', `/releases/${rel.id}/tracks/upload-url`, { filename: v, content_type: 'audio/wav', size: 1000 }),
    ],
    [
      'content_type',
      body('CreateTrackUploadUrlRequest', 'content_type'),
      (v) => api(s, s.tokens.label, 'POST', `/releases/${rel.id}/tracks/upload-url`, { filename: 'a.wav', content_type: v, size: 1000 }),
    ],
    ['title', body('UpdateReleaseMetadataRequest', 'title'), (v) => api(s, s.tokens.label, 'PATCH', `/releases/${rel.id}/metadata`, { title: v })],
  ];
  const out: Record<string, string> = {};
  let total = 0;
  let refused = 0;
  for (const [name, sch, send] of cases) {
    const values = fc.sample(strings(sch), RUNS);
    let bad = 0;
    let notFound = 0;
    const examples: string[] = [];
    for (const v of values) {
      const r = await send(v);
      if (r.status === 404) notFound++;
      else if (r.status >= 400) {
        bad++;
        if (examples.length < 2) examples.push(`${JSON.stringify(v)} → ${r.status} ${r.body?.error?.message}`);
      }
    }
    total += values.length;
    refused += bad;
    out[name] = `${bad} refused, ${notFound} not found of ${values.length} ${examples.join(' | ')}`;
  }
  if (process.env.RELDIST_DOCUMENT_FUZZ_RUNS) console.log(JSON.stringify({ total, refused, out }, null, 1));
  expect(refused, JSON.stringify(out, null, 1)).toBe(0);
  expect(total).toBe(cases.length * RUNS);
}, 120_000);
