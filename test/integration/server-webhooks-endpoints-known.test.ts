// The service remembers which accounts have no webhook endpoint, so their events skip the
// queueing statement (store/webhooks.ts, hasEnabledEndpoint). What it remembers must never cost a
// delivery: an endpoint added by this process, or by another process sharing the data directory,
// gets the next event, and one deleted or disabled gets none.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';
import { ListWebhookDeliveriesResponse, WebhookEndpointWithSecret } from '../../src/contract/webhooks.js';

let s: TestServer;
let other: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({ webhooks: { retryHorizonMs: 4000, timeoutMs: 1000 } });
  // A second process's connection to the same data directory, as the embedded sandbox opens one.
  other = await startTestServer({ dataDir: s.dataDir, webhookDispatch: false });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await other?.close();
  await s?.close();
});

async function createHook(on: TestServer, token: string, url: string) {
  const r = await api(on, token, 'POST', '/webhooks', { url, events: ['release.created'] });
  if (r.status !== 201) throw new Error(`create webhook: ${r.status} ${JSON.stringify(r.body)}`);
  return WebhookEndpointWithSecret.parse(r.body);
}

/** The event ids of the endpoint's deliveries, oldest first. */
async function deliveredEvents(token: string, hookId: number): Promise<number[]> {
  const r = await api(s, token, 'GET', `/webhooks/${hookId}/deliveries`);
  expect(r.status).toBe(200);
  return ListWebhookDeliveriesResponse.parse(r.body)
    .data.map((d) => d.event_id)
    .reverse();
}

/** Creates a release through `on`; returns the id of its release.created event. */
async function createdEvent(on: TestServer, token: string): Promise<number> {
  const rel = await createRelease(on, token);
  const r = await api(on, token, 'GET', `/events?release_id=${rel.id}`);
  expect(r.body.data).toHaveLength(1);
  return r.body.data[0].id;
}

async function receiver(): Promise<Receiver> {
  const rx = await startReceiver();
  receivers.push(rx);
  return rx;
}

describe('events of accounts without webhooks', () => {
  it('an endpoint created by this process gets the next event', async () => {
    const token = s.tokens.artist;
    // Learnt: this account has no endpoint.
    await createdEvent(s, token);
    const rx = await receiver();
    const hook = await createHook(s, token, rx.url);
    const next = await createdEvent(s, token);
    expect(await deliveredEvents(token, hook.id)).toEqual([next]);
    const [got] = await rx.waitFor(1);
    expect(verify(hook.secret, got!).data.id).toBe(next);
  });

  it('an endpoint created or disabled by another process sharing the data directory, then enabled again by this one', async () => {
    const token = s.tokens.label;
    await createdEvent(s, token);
    const hook = await createHook(other, token, (await receiver()).url);
    const first = await createdEvent(s, token);
    expect(await deliveredEvents(token, hook.id)).toEqual([first]);

    // Disabled by the other process: nothing more queued, and this one learns there is none.
    expect((await api(other, token, 'PATCH', `/webhooks/${hook.id}`, { enabled: false })).status).toBe(200);
    await createdEvent(s, token);
    await createdEvent(s, token);
    expect(await deliveredEvents(token, hook.id)).toEqual([first]);

    // Enabled again here: the next event is delivered.
    expect((await api(s, token, 'PATCH', `/webhooks/${hook.id}`, { enabled: true })).status).toBe(200);
    const last = await createdEvent(s, token);
    expect(await deliveredEvents(token, hook.id)).toEqual([first, last]);
  });
});
