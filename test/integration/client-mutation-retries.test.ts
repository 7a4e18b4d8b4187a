// Every mutation (POST, PUT, PATCH, DELETE) carries an Idempotency-Key and is retried under it:
// through the fault proxy, an answer lost after the service did the work is replayed, never
// repeated, and a DELETE whose answer was lost is reported as done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../src/client/index.js';
import { startFaultProxy, type FaultProxy, type FaultRates } from '../helpers/fault-proxy.js';
import type { BodyOf } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeClientError } from '../../src/cli/describe-client-error.js';

const validRelease: BodyOf<'createRelease'> = {
  type: 'single',
  title: 'Northern Sky',
  artists: [{ name: 'Nina Vale', role: 'primary' }],
  label: 'Northern Lights Records',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** A proxy that faults the first matching request (then lets the retry through), and a client behind it. */
async function faulty(method: string, faults: FaultRates): Promise<{ proxy: FaultProxy; client: ApiClient; close(): Promise<void> }> {
  const proxy = await startFaultProxy({ target: server.url, seed: 1, faults, maxConsecutiveFaults: 1, match: (m) => m === method });
  const client = createClient({
    baseUrl: proxy.url,
    token: server.tokens.label,
    transport: 'undici',
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 },
  });
  return {
    proxy,
    client,
    close: async () => {
      await client.close();
      await proxy.close();
    },
  };
}

async function newDraft(title: string): Promise<number> {
  const c = createClient({ baseUrl: server.url, token: server.tokens.label, transport: 'http' });
  const r = await c.call('createRelease', { body: { ...validRelease, title } });
  await c.close();
  return r.id;
}

describe('mutations are retried under one Idempotency-Key', () => {
  it('PATCH: the answer lost after the work is replayed on the retry', async () => {
    const id = await newDraft('Patch Me');
    const f = await faulty('PATCH', { dropAfter: 1 });
    const res = await f.client.call('updateReleaseMetadata', { params: { releaseId: id }, body: { title: 'Patched' } });
    expect(res.title).toBe('Patched');
    const route = f.proxy.stats.byRoute['PATCH /releases/{releaseId}/metadata']!;
    expect(route.requests).toBe(2);
    expect(route.byDecision.dropAfter).toBe(1);
    await f.close();
  });

  it('PUT: a request dropped before the service saw it is sent again', async () => {
    const id = await newDraft('Put Me');
    const f = await faulty('PUT', { dropBefore: 1 });
    const res = await f.client.call('replaceReleaseTracks', { params: { releaseId: id }, body: { tracks: [] } });
    expect(res).toBeDefined();
    const route = f.proxy.stats.byRoute['PUT /releases/{releaseId}/tracks']!;
    expect(route.requests).toBe(2);
    expect(route.byDecision.dropBefore).toBe(1);
    await f.close();
  });

  it('POST create: a lost answer makes one release, not two', async () => {
    const f = await faulty('POST', { dropAfter: 1 });
    const before = (await f.client.call('listReleases', { query: { catalog_number: 'RETRY-POST-1' } })).data.length;
    const created = await f.client.call('createRelease', { body: { ...validRelease, title: 'Once', catalog_number: 'RETRY-POST-1' } });
    const after = await f.client.call('listReleases', { query: { catalog_number: 'RETRY-POST-1' } });
    expect(before).toBe(0);
    expect(after.data.map((r) => String(r.id))).toEqual([String(created.id)]);
    await f.close();
  });

  it('DELETE: the first attempt succeeded, its answer was lost: reported as done', async () => {
    const id = await newDraft('Delete Me');
    const f = await faulty('DELETE', { dropAfter: 1 });
    await expect(f.client.call('deleteRelease', { params: { releaseId: id } })).resolves.toBeDefined();
    const route = f.proxy.stats.byRoute['DELETE /releases/{releaseId}']!;
    expect(route.requests).toBe(2);
    await expect(f.client.call('getRelease', { params: { releaseId: id } })).rejects.toMatchObject({ status: 404 });
    await f.close();
  });

  it('DELETE: a 404 after a lost answer counts as done even without the replay', async () => {
    const id = await newDraft('Delete Me Too');
    // Each attempt gets its own key here, so the service cannot replay: the retry finds nothing.
    const f = await faulty('DELETE', { dropAfter: 1 });
    await expect(f.client.request({ method: 'DELETE', path: `/releases/${id}` })).resolves.toMatchObject({ status: 200 });
    await f.close();
    // Without a lost answer, a DELETE of something that is not there is still a 404.
    const direct = createClient({ baseUrl: server.url, token: server.tokens.label, transport: 'http' });
    await expect(direct.request({ method: 'DELETE', path: '/releases/999999' })).rejects.toMatchObject({ status: 404 });
    await direct.close();
  });

  it('a network failure that outlasts the retries is a network error, not a refusal', async () => {
    const id = await newDraft('Never Reached');
    const proxy = await startFaultProxy({ target: server.url, seed: 2, faults: { dropBefore: 1 }, maxConsecutiveFaults: 100, match: (m) => m === 'PATCH' });
    const client = createClient({
      baseUrl: proxy.url,
      token: server.tokens.label,
      transport: 'undici',
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 },
    });
    const err: any = await client.call('updateReleaseMetadata', { params: { releaseId: id }, body: { title: 'X' } }).catch((e) => e);
    expect(err.name).toBe('NetworkError');
    expect(describeClientError(err)!).toMatchObject({ code: 'network_error' });
    expect(describeClientError(err)!.message).not.toMatch(/refused/);
    expect(proxy.stats.requests).toBe(3);
    await client.close();
    await proxy.close();
  });
});

describe('a key an earlier attempt still holds', () => {
  it("the client waits (409 idempotency_in_progress, each wait told) and gets the first attempt's answer, not a second effect", async () => {
    // A service whose profile look-ups wait for the test: the first attempt holds its key meanwhile.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const profile = {
      platform: 'video_b' as const,
      id: 'UC-slow',
      name: 'Slow Channel',
      url: 'https://video-b.example/@slow',
      image_url: null,
      followers: null,
      handle: 'slow',
    };
    let lookups = 0;
    const slow = await startTestServer({
      artists: {
        search: async () => [],
        get: async () => undefined,
        getByHandle: async () => {
          lookups++;
          await gate;
          return profile;
        },
      },
    });
    const body: BodyOf<'submitLabelPreference'> = {
      artists: [{ name: 'Waited For', platforms: [{ platform: 'video_b', mode: 'existing', profile_id: '@slow' }] }],
    };
    const key = 'client-waits-for-its-key';
    const first = fetch(`${slow.url}/preferences/label/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slow.tokens.label}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    for (let i = 0; i < 200 && lookups === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(lookups).toBe(1);
    const waits: string[] = [];
    const client = createClient({
      baseUrl: slow.url,
      token: slow.tokens.label,
      transport: 'http',
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 },
      // The first attempt finishes while the client waits.
      onRetry: ({ reason }) => {
        waits.push(reason);
        if (waits.length === 2) open();
      },
    });
    try {
      const answer = await client.call('submitLabelPreference', { body, idempotencyKey: key });
      expect(answer.message).toBe('Label preferences saved: 1 artist added.');
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(new Set(waits)).toEqual(new Set(['409 idempotency_in_progress']));
      expect(await (await first).json()).toEqual(answer);
      const listed = await client.call('getLabelPreferences', { query: { search: 'Waited For' } });
      expect(listed.artists.map((a) => a.name)).toEqual(['Waited For']);
    } finally {
      open();
      await client.close();
      await slow.close();
    }
  });
});
