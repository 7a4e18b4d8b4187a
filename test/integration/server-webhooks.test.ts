// Webhooks against the real service: endpoints (secret once, never listed), deliveries verified by
// the unmodified standardwebhooks library, retries with the same webhook-id until a 2xx or the
// horizon, the delivery log, resend, test pings, rotation's overlap, redirects not followed, the
// address rules (team service vs sandbox, at create and at send), a hanging receiver that does not
// hold the change, and another account's endpoints and deliveries out of sight.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';
import { ListWebhookDeliveriesResponse, WebhookEndpoint, WebhookEndpointWithSecret } from '../../src/contract/webhooks.js';
import { ListEventsResponse } from '../../src/contract/events.js';
import { rm } from 'node:fs/promises';

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function createHook(s: TestServer, token: string, body: Record<string, unknown>) {
  const r = await api(s, token, 'POST', '/webhooks', body);
  if (r.status !== 201) throw new Error(`create webhook: ${r.status} ${JSON.stringify(r.body)}`);
  return WebhookEndpointWithSecret.parse(r.body);
}

async function deliveries(s: TestServer, token: string, hookId: number, query = '') {
  const r = await api(s, token, 'GET', `/webhooks/${hookId}/deliveries${query}`);
  expect(r.status).toBe(200);
  return ListWebhookDeliveriesResponse.parse(r.body);
}

/** Polls the delivery log until `done` holds (bounded). */
async function logUntil(s: TestServer, token: string, hookId: number, done: (d: ListWebhookDeliveriesResponse) => boolean) {
  for (let i = 0; i < 200; i++) {
    const d = await deliveries(s, token, hookId);
    if (done(d)) return d;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the delivery log did not reach the state awaited');
}

describe('webhooks on a sandbox', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ webhooks: { retryHorizonMs: 4000, timeoutMs: 1000 } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers the secret once, never lists it, and delivers each wanted event signed (verified by standardwebhooks), the payload the event as GET /events has it', async () => {
    const rx = await receiver();
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created', 'release.deleted'], description: 'ci' });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(hook).toMatchObject({ url: rx.url, events: ['release.created', 'release.deleted'], enabled: true, description: 'ci' });
    const list = await api(s, s.tokens.label, 'GET', '/webhooks');
    const got = await api(s, s.tokens.label, 'GET', `/webhooks/${hook.id}`);
    expect(JSON.stringify([list.body, got.body])).not.toContain(hook.secret.slice(6));
    expect(
      WebhookEndpoint.array()
        .parse(list.body)
        .map((h) => h.id),
    ).toContain(hook.id);

    const rel = await createRelease(s, s.tokens.label, { catalog_number: 'WH-0001' });
    // Not wanted: an edit records release.updated, which this endpoint did not ask for.
    expect((await api(s, s.tokens.label, 'PATCH', `/releases/${rel.id}/metadata`, { title: 'Other' })).status).toBe(200);
    expect((await api(s, s.tokens.label, 'DELETE', `/releases/${rel.id}`)).status).toBe(200);
    const [a, b] = await rx.waitFor(2);
    const events = ListEventsResponse.parse((await api(s, s.tokens.label, 'GET', `/events?release_id=${rel.id}`)).body).data;
    const wanted = events.filter((e) => e.type !== 'release.updated');
    const payloads = [verify(hook.secret, a!), verify(hook.secret, b!)].sort((x, y) => x.data.id - y.data.id);
    expect(payloads.map((p) => p.type)).toEqual(['release.created', 'release.deleted']);
    expect(payloads.map((p) => p.data)).toEqual(wanted);
    expect([a, b].map((r) => r!.headers['webhook-id']).sort()).toEqual(wanted.map((e) => `evt_${e.id}`).sort());
    expect(a!.headers['content-type']).toBe('application/json');
    // Nothing else comes: the edit was not wanted.
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toHaveLength(2);

    const log = await logUntil(s, s.tokens.label, hook.id, (d) => d.data.length === 2 && d.data.every((x) => x.status === 'succeeded'));
    expect(log.data[0]).toMatchObject({ webhook_id: hook.id, event_type: 'release.deleted', status: 'succeeded', resend: false, next_attempt_at: null });
    expect(log.data[0]!.attempts).toEqual([{ attempt: 1, at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number) }]);
    expect((await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`)).status).toBe(200);
  });

  it('retries a failing receiver with backoff, the same webhook-id on every attempt, until it answers 2xx; logs each attempt', async () => {
    const rx = await receiver();
    rx.answers.push(503, 500, 404);
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created'] });
    const rel = await createRelease(s, s.tokens.label);
    const got = await rx.waitFor(4);
    const ids = new Set(got.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const r of got) expect(verify(hook.secret, r).data.release_id).toBe(rel.id);
    // Backoff: each wait at least as long as the one before, give or take the jitter.
    const gaps = got.slice(1).map((r, i) => r.at - got[i]!.at);
    expect(gaps.every((g) => g > 0)).toBe(true);
    const log = await logUntil(s, s.tokens.label, hook.id, (d) => d.data[0]?.status === 'succeeded');
    expect(log.data[0]!.attempts.map((a) => a.status_code)).toEqual([503, 500, 404, 200]);
    expect(log.data[0]!.attempts[0]!.error).toBe('answered 503');
    await new Promise((r) => setTimeout(r, 150));
    expect(rx.received).toHaveLength(4);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('gives up after the retry horizon: the delivery fails, with every attempt logged', async () => {
    const rx = await receiver(500);
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created'] });
    await createRelease(s, s.tokens.label);
    const log = await logUntil(s, s.tokens.label, hook.id, (d) => d.data[0]?.status === 'failed');
    const attempts = log.data[0]!.attempts;
    expect(attempts.length).toBeGreaterThan(3);
    expect(attempts.every((a) => a.status_code === 500)).toBe(true);
    expect(log.data[0]!.next_attempt_at).toBeNull();
    // Within the horizon (4 s here) of the event.
    expect(Date.parse(attempts.at(-1)!.at) - Date.parse(log.data[0]!.created_at)).toBeLessThanOrEqual(4000);
    expect(rx.received.length).toBe(attempts.length);
    expect((await deliveries(s, s.tokens.label, hook.id, '?status=failed')).data).toHaveLength(1);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('resends an event on request with the same webhook-id; tests an endpoint with a signed ping', async () => {
    const rx = await receiver();
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created'] });
    const rel = await createRelease(s, s.tokens.label);
    const [first] = await rx.waitFor(1);
    const eventId = verify(hook.secret, first!).data.id;
    const resend = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/resend`, { event_id: eventId });
    expect(resend.status).toBe(201);
    expect(resend.body).toMatchObject({ event_id: eventId, resend: true, status: 'pending' });
    const [, again] = await rx.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(hook.secret, again!).data.release_id).toBe(rel.id);
    const unknown = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/resend`, { event_id: 999_999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields).toHaveProperty('event_id');

    const test = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ delivered: true, status_code: 200, error: null, webhook_id: expect.stringMatching(/^msg_test_/) });
    const [, , ping] = await rx.waitFor(3);
    expect(verify(hook.secret, ping!)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    rx.fallback = 500;
    const failed = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/test`);
    expect(failed.body).toMatchObject({ delivered: false, status_code: 500, error: 'answered 500' });
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('does not follow redirects: a 3xx is a failed attempt, and the address it names gets nothing', async () => {
    const elsewhere = await receiver();
    const rx = await receiver({ redirect: elsewhere.url });
    const hook = await createHook(s, s.tokens.label, { url: rx.url });
    const test = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/test`);
    expect(test.body).toMatchObject({ delivered: false, status_code: 302, error: 'answered 302 (redirects are not followed)' });
    expect(elsewhere.received).toHaveLength(0);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('rotation signs with both secrets during the overlap, then with the new one only', async () => {
    const rx = await receiver();
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created'] });
    const rotated = await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/rotate-secret`, { overlap_seconds: 1 });
    expect(rotated.status).toBe(200);
    const fresh = WebhookEndpointWithSecret.parse(rotated.body);
    expect(fresh.secret).not.toBe(hook.secret);
    expect(fresh.previous_secret_expires_at).not.toBeNull();
    await createRelease(s, s.tokens.label);
    const [during] = await rx.waitFor(1);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(hook.secret, during!).type).toBe('release.created');
    expect(verify(fresh.secret, during!).type).toBe('release.created');
    // After the overlap (1 s): the old secret no longer verifies.
    const ends = Date.parse(fresh.previous_secret_expires_at!);
    await new Promise((r) => setTimeout(r, Math.max(0, ends - Date.now()) + 50));
    await createRelease(s, s.tokens.label);
    const [, after] = await rx.waitFor(2);
    expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh.secret, after!).type).toBe('release.created');
    expect(() => verify(hook.secret, after!)).toThrow();
    expect((await api(s, s.tokens.label, 'GET', `/webhooks/${hook.id}`)).body.previous_secret_expires_at).toBeNull();
    // overlap 0 cuts the old secret at once.
    const cut = WebhookEndpointWithSecret.parse((await api(s, s.tokens.label, 'POST', `/webhooks/${hook.id}/rotate-secret`, { overlap_seconds: 0 })).body);
    expect(cut.previous_secret_expires_at).toBeNull();
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it('a hanging receiver does not hold the change that caused the event', async () => {
    const HANG_MS = 1500;
    const rx = await receiver({ hangMs: HANG_MS });
    const hook = await createHook(s, s.tokens.label, { url: rx.url, events: ['release.created', 'release.updated'] });
    const rel = await createRelease(s, s.tokens.label);
    await rx.waitFor(1);
    // The receiver now holds the first delivery; an edit answers without waiting for it.
    const t0 = performance.now();
    const patch = await api(s, s.tokens.label, 'PATCH', `/releases/${rel.id}/metadata`, { title: 'While it hangs' });
    const changeMs = performance.now() - t0;
    expect(patch.status).toBe(200);
    const [, second] = await rx.waitFor(2);
    expect(verify(hook.secret, second!).type).toBe('release.updated');
    // Compared with the hang, not with a wall-clock bound.
    expect(changeMs).toBeLessThan(HANG_MS / 3);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${hook.id}`);
  });

  it("keeps another account's endpoints and deliveries out of sight, and never delivers its events", async () => {
    const rx = await receiver();
    const mine = await createHook(s, s.tokens.label, { url: rx.url });
    const theirs = await createHook(s, s.tokens.artist, { url: rx.url, events: ['release.created'] });
    for (const [method, path, body] of [
      ['GET', `/webhooks/${mine.id}`],
      ['PATCH', `/webhooks/${mine.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${mine.id}`],
      ['GET', `/webhooks/${mine.id}/deliveries`],
      ['POST', `/webhooks/${mine.id}/test`],
      ['POST', `/webhooks/${mine.id}/rotate-secret`, {}],
      ['POST', `/webhooks/${mine.id}/resend`, { event_id: 1 }],
    ] as const) {
      expect((await api(s, s.tokens.artist, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect(((await api(s, s.tokens.artist, 'GET', '/webhooks')).body as { id: number }[]).map((h) => h.id)).toEqual([theirs.id]);
    await createRelease(s, s.tokens.label, { catalog_number: 'WH-XACC' });
    const [got] = await rx.waitFor(1);
    expect(verify(mine.secret, got!).data.catalog_number).toBe('WH-XACC');
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toHaveLength(1);
    expect(() => verify(theirs.secret, got!)).toThrow();
    expect((await deliveries(s, s.tokens.artist, theirs.id)).data).toHaveLength(0);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${mine.id}`);
    await api(s, s.tokens.artist, 'DELETE', `/webhooks/${theirs.id}`);
  });

  it('a sandbox allows loopback but refuses private and link-local addresses', async () => {
    for (const url of ['http://10.0.0.7/h', 'http://169.254.169.254/latest', 'http://[fd00::1]/h', 'http://[::ffff:192.168.1.1]/h']) {
      const r = await api(s, s.tokens.label, 'POST', '/webhooks', { url });
      expect(r.status, url).toBe(422);
      expect(r.body.error.fields.url[0], url).toMatch(/private, link-local or reserved/);
    }
    const ok = await api(s, s.tokens.label, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/h' });
    expect(ok.status).toBe(201);
    await api(s, s.tokens.label, 'DELETE', `/webhooks/${ok.body.id}`);
  });
});

describe('webhooks on a team service', () => {
  it('refuses loopback, private, link-local and mapped addresses at create, and again at send when the service changed its rules', async () => {
    const dataDir = await makeTempDataDir();
    const rx = await receiver();
    let hookId: number;
    // Made on a sandbox over the data directory, which allows loopback…
    const sandbox = await startTestServer({ dataDir, webhookDispatch: false });
    try {
      hookId = (await createHook(sandbox, sandbox.tokens.label, { url: rx.url, events: ['release.created'] })).id;
    } finally {
      await sandbox.close();
    }
    // …then served as a team service: the delivery is refused at send.
    const team = await startTestServer({ dataDir, sandbox: false, webhooks: { retryHorizonMs: 500, timeoutMs: 1000, addresses: 'public' } });
    try {
      for (const url of [
        'http://127.0.0.1:8080/h',
        'http://localhost:8080/h',
        'http://[::1]/h',
        'http://[::ffff:127.0.0.1]/h',
        'http://10.1.2.3/h',
        'http://169.254.169.254/h',
        'http://[fe80::1]/h',
        'http://0.0.0.0/h',
      ]) {
        const r = await api(team, team.tokens.label, 'POST', '/webhooks', { url });
        expect(r.status, url).toBe(422);
        expect(r.body.error.message, url).toMatch(/^invalid request body: url: .*(loopback|private)/);
      }
      await createRelease(team, team.tokens.label);
      const log = await logUntil(team, team.tokens.label, hookId, (d) => d.data[0]?.status === 'failed');
      expect(log.data[0]!.attempts[0]!.error).toMatch(/127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
      expect(rx.received).toHaveLength(0);
    } finally {
      await team.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
