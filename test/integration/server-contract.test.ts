// The service and the contract cannot drift: every endpoint of the catalog is driven once against
// the real service and its answer parsed with the catalog's response schema, strictly (a field
// the schema does not know fails, as does a missing or mistyped one). Error bodies met on the way
// are held to ErrorBody the same way.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type * as z from 'zod';
import { catalog, ErrorBody, type EndpointId } from '../../src/contract/index.js';
import { daysFromNow, submittableRelease, upload, validWav } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const seen = new Set<EndpointId>();

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

/**
 * Paths of fields in `value` that parsing dropped: zod's objects strip unknown keys, so what the
 * input has and the output lacks is exactly what the schema does not declare.
 */
function unknownKeys(value: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(value) && Array.isArray(parsed)) return value.flatMap((v, i) => unknownKeys(v, parsed[i], `${path}.${i}`));
  if (value === null || typeof value !== 'object' || parsed === null || typeof parsed !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (!(k in parsed)) out.push(`${path}.${k}`.slice(1));
    else out.push(...unknownKeys(v, (parsed as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return out;
}

function strictParse(schema: z.ZodType, body: unknown, what: string): void {
  const r = schema.safeParse(body);
  expect(r.success, `${what}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 5))}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
  expect(unknownKeys(body, r.data), `${what}: fields the contract does not declare`).toEqual([]);
  // Nothing filled in by defaults either: the service sent every field itself.
  expect(r.data, what).toStrictEqual(body);
}

/** Calls one catalog endpoint; checks the status and the body against the contract. */
async function call(id: EndpointId, token: string, params: Record<string, string | number> = {}, body?: unknown, query = ''): Promise<any> {
  const e = catalog[id];
  const path = e.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(String(params[n])));
  const res = await api(s, token, e.method, path + query, body);
  expect(res.status, `${id}: ${JSON.stringify(res.body).slice(0, 400)} ${s.errors.join('\n')}`).toBe(e.status);
  strictParse(e.response, res.body, id);
  seen.add(id);
  return res.body;
}

async function callError(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await api(s, token, method, path, body);
  expect(res.status).toBeGreaterThanOrEqual(400);
  strictParse(ErrorBody, res.body, `${method} ${path} (error)`);
  return res.body;
}

test('every endpoint answers exactly what the contract declares', async () => {
  const label = s.tokens.label;
  const artist = s.tokens.artist;

  await call('getMe', label);

  // Releases and tracks, through every state a client can reach.
  const rel = await call(
    'createRelease',
    label,
    {},
    {
      type: 'album',
      title: 'Contract Check',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'Northern Lights Records',
      genre: 'Pop',
      language: 'en',
    },
  );
  const releaseId = rel.id as number;
  await call('listReleases', label, {}, undefined, '?perPage=5&status=draft');
  await call('getRelease', label, { releaseId });
  await call(
    'updateReleaseMetadata',
    label,
    { releaseId },
    {
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
      original_release_date: '2020-01-01',
      catalog_number: 'NLR-001',
      version: 'Deluxe Edition',
      artwork: { url: 'https://cdn.example/art.jpg', width: 3000, height: 3000, format: 'jpg', color_space: 'rgb' },
    },
  );
  await call(
    'updateReleaseDelivery',
    label,
    { releaseId },
    { release_date: daysFromNow(30), preorder_date: daysFromNow(20), price_tier: 'front', territories: { mode: 'exclude', countries: ['KP'] } },
  );
  await call('updateReleaseVideo', label, { releaseId }, { enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'track' } });
  const ticket = await call('createTrackUploadUrl', label, { releaseId }, { filename: 'a.wav', content_type: 'audio/wav', size: 1000, sha256: 'a'.repeat(64) });
  expect(ticket.method).toBe('PUT');
  const cover = await call('createArtworkUploadUrl', label, { releaseId }, { filename: 'cover.jpg', content_type: 'image/jpeg', size: 1000 });
  expect(cover.headers['Content-Type']).toBe('image/jpeg');
  const a = await upload(s, label, releaseId, validWav());
  const b = await upload(s, label, releaseId, validWav(), { filename: 'b.wav' });
  expect([a.put.status, b.put.status]).toEqual([200, 200]);
  // Uploads not yet attached: the two just made (and the two addresses asked for above); then one discarded by key.
  const loose = await call('listUploads', label);
  expect(loose.length).toBeGreaterThanOrEqual(2);
  await call('listUploads', label, {}, undefined, '?state=receiving');
  await call('discardUploads', label, {}, { keys: [ticket.key] });
  await call('discardUploads', label, {}, { state: 'receiving' });
  const withTracks = await call(
    'replaceReleaseTracks',
    label,
    { releaseId },
    {
      tracks: [
        {
          file_key: a.key,
          title: 'First Light',
          isrc: 'USSKG1912345',
          contributors: [{ name: 'Nina Vale', role: 'composer' }],
          audio_language: 'instrumental',
        },
        { title: 'Second Light', contributors: [{ name: 'Nina Vale', role: 'composer' }] },
      ],
    },
  );
  const [t1, t2] = withTracks.tracks;
  await call('listTracks', label, { releaseId });
  await call('getTrack', label, { releaseId, trackId: t1.id });
  await call('replaceTrackFile', label, { releaseId, trackId: t2.id }, { file_key: b.key });

  // Code checks, with every kind of problem the service adds of its own.
  const other = await call(
    'createRelease',
    label,
    {},
    { type: 'single', title: 'Holder', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'L', upc: '5901234123457' },
  );
  const upcInUse = await call('validateUpc', label, {}, { upc: '05901234123457', release_id: releaseId });
  expect(upcInUse.problems.map((p: any) => p.code)).toEqual(['upc_in_use']);
  const badUpc = await call('validateUpc', label, {}, { upc: '036000291453' });
  expect(badUpc.valid).toBe(false);
  const dupIsrc = await call('validateIsrc', label, {}, { isrc: 'us-skg-19-12345', release_id: releaseId });
  expect(dupIsrc.problems.map((p: any) => p.code)).toEqual(['isrc_duplicate']);
  await call('validateIsrc', label, {}, { isrc: 'XX-SKG-99-1234' });
  const batch = await call(
    'validateCodes',
    label,
    {},
    {
      codes: [
        { kind: 'upc', code: '05901234123457', release_id: releaseId },
        { kind: 'isrc', code: 'us-skg-19-12345', release_id: releaseId },
        { kind: 'upc', code: '036000291453' },
        { kind: 'isrc', code: 'XX-SKG-99-1234' },
      ],
    },
  );
  expect(batch.data.map((r: any) => r.problems.map((p: any) => p.code)[0])).toEqual(['upc_in_use', 'isrc_duplicate', 'bad_check_digit', expect.any(String)]);

  // Submit: blocked (error body), dry run, then through with warnings.
  const blocked = await callError('POST', `/releases/${other.id}/submit`, label, {});
  expect(blocked.error.code).toBe('submit_blocked');
  await call('submitRelease', label, { releaseId }, { dry_run: true });
  const ready = await submittableRelease(s, label, { title: 'READY FOR REVIEW' });
  const submitted = await call('submitRelease', label, { releaseId: ready.id }, {});
  expect(submitted.submitted).toBe(true);
  expect(submitted.problems.length).toBeGreaterThan(0);
  // The batch form: each release's answer, a success or an error body, as the contract says.
  const many = await call('submitReleases', label, {}, { release_ids: [other.id, ready.id] });
  expect(many.data.map((r: any) => r.status)).toEqual([422, 409]);
  const dry = await call('submitReleases', label, {}, { release_ids: [releaseId], dry_run: true });
  expect(dry.data[0].status).toBe(200);
  await call('deleteRelease', label, { releaseId: other.id });
  // The event log of all of the above: every kind of event these writes made, each as the contract says.
  const log = await call('listEvents', label, {}, undefined, '?limit=500');
  expect(new Set(log.data.map((e: any) => e.type)).size).toBeGreaterThanOrEqual(6);
  await call('listEvents', label, {}, undefined, `?release_id=${releaseId}&last=3`);
  await call('listEvents', label, {}, undefined, `?after=${log.cursor}&wait=0`);
  await callError('GET', '/events?after=1&last=1', label);
  await callError('PATCH', `/releases/${ready.id}/metadata`, label, { title: 'Locked' });
  // Withdraw: the release in review back to a draft, then refused as one.
  const withdrawn = await call('withdrawRelease', label, { releaseId: ready.id }, {});
  expect(withdrawn.status).toBe('draft');
  await callError('POST', `/releases/${ready.id}/withdraw`, label, {});

  // Webhooks (a sandbox takes loopback URLs; nothing listens on port 9: the ping says so).
  const hook = await call('createWebhook', label, {}, { url: 'http://127.0.0.1:9/contract', events: ['release.approved'] });
  expect(hook.secret).toMatch(/^whsec_/);
  await call('listWebhooks', label);
  await call('getWebhook', label, { webhookId: hook.id });
  await call('updateWebhook', label, { webhookId: hook.id }, { description: 'contract', enabled: false });
  const ping = await call('testWebhook', label, { webhookId: hook.id }, {});
  expect(ping.delivered).toBe(false);
  await call('rotateWebhookSecret', label, { webhookId: hook.id }, { overlap_seconds: 60 });
  await call('resendWebhookEvent', label, { webhookId: hook.id }, { event_id: log.data[0].id });
  await call('listWebhookDeliveries', label, { webhookId: hook.id }, undefined, '?limit=5');
  await callError('POST', '/webhooks', label, { url: 'http://127.0.0.1:9/contract' });
  await call('deleteWebhook', label, { webhookId: hook.id });
  await callError('POST', '/releases', label, { type: 'single' });

  // Platform profiles (search results feed the link endpoints and the preferences).
  const [sa] = await call('searchStreamingA', label, {}, undefined, '?q=Lena%20Voss&limit=3');
  const [vb] = await call('searchVideoChannel', label, {}, undefined, '?q=Lena%20Voss');
  const [sc] = await call('searchStoreC', label, {}, undefined, '?q=Lena%20Voss');
  await call('getStreamingAArtist', label, {}, undefined, `?url=${encodeURIComponent(sa.url)}`);
  await call('getVideoChannel', label, {}, undefined, `?url=${encodeURIComponent(vb.url)}`);
  await call('getStoreCArtist', label, {}, undefined, `?url=${encodeURIComponent(sc.url)}`);
  await call('getArtistViaLink', label, {}, undefined, `?platform=store_c&url=${encodeURIComponent(sc.url)}`);
  await call('searchArtistPlatform', label, {}, { name: 'Lena Voss', limit: 2 });
  await call('getArtistViaUrl', label, {}, { url: vb.url });

  // Preferences: the label's side, then the artist's.
  await call(
    'submitLabelPreference',
    label,
    {},
    {
      default_genre: 'Rock',
      artists: [
        {
          name: 'Contract Artist',
          platforms: [
            { platform: 'video_b', mode: 'existing', profile_id: vb.id },
            { platform: 'store_c', mode: 'new' },
          ],
        },
      ],
    },
  );
  const prefs = await call('getLabelPreferences', label, {}, undefined, '?search=contract&limit=5');
  const managed = prefs.artists[0];
  await call('getLabelArtist', label, { id: managed.id });
  await call('listPreferenceArtists', label);
  await call('removeLabelArtist', label, {}, { artist_id: managed.id });
  await call(
    'submitArtistPreference',
    artist,
    {},
    { artist_name: 'Sandbox Artist', platforms: [{ platform: 'streaming_a', mode: 'existing', profile_id: sa.id }] },
  );
  await call('getArtistPreferences', artist);
  await callError('GET', '/preferences/artist', label);

  await call('getCountries', label);
  await call('getPlatforms', label);
  await call('getGenres', label);
  await call('getLanguages', label);

  expect([...Object.keys(catalog)].filter((id) => !seen.has(id as EndpointId))).toEqual([]);
}, 60_000);
