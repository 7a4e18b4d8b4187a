// `reldist webhook …` against the real service: create prints the secret once (never list, never
// --debug), test, deliveries, resend, rotate-secret, update, delete, their errors, and `listen`
// forwarding the account's events, signed, to a local receiver.
import { afterEach, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';
import { createRelease } from '../helpers/releases.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';

const cli = useCli({ webhooks: { retryHorizonMs: 3000, timeoutMs: 1000 } });
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

describe('webhook create, list, test, deliveries, resend, rotate-secret, update, delete', () => {
  it('manages an endpoint end to end; the secret shows on create and rotate only', async () => {
    const rx = await receiver();
    const created = await cli.run(['webhook', 'create', rx.url, '--events', 'created,release.deleted', '--description', 'ci', '--json', '--debug']);
    expect(created.code, created.stderr).toBe(0);
    const hook = JSON.parse(created.stdout);
    expect(hook).toMatchObject({ url: rx.url, events: ['release.created', 'release.deleted'], description: 'ci', secret: expect.stringMatching(/^whsec_/) });
    // --debug traces the exchange, with the secret redacted.
    expect(created.stderr).toContain('whsec_[redacted]');
    expect(created.stderr).not.toContain(hook.secret);

    const piped = await cli.run(['webhook', 'list']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(`${hook.id}\t${rx.url}\trelease.created,release.deleted\ttrue`);
    expect(piped.stdout).not.toContain('whsec_');

    const again = await cli.run(['webhook', 'create', rx.url]);
    expect(again.code).toBe(9);
    expect(again.stderr).toContain(`webhook ${hook.id} already delivers to ${rx.url}`);

    const test = await cli.run(['webhook', 'test', String(hook.id)]);
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^delivered: 200 in \d+ ms \(msg_test_[0-9a-f]+\)\n$/);
    expect(verify(hook.secret, rx.received[0]!).type).toBe('webhook.test');

    const rel = await createRelease(cli.server, cli.server.tokens.label);
    const [, delivered] = await rx.waitFor(2);
    const event = verify(hook.secret, delivered!).data;
    expect(event.release_id).toBe(rel.id);

    let log = await cli.run(['webhook', 'deliveries', String(hook.id)]);
    for (let i = 0; i < 50 && !log.stdout.includes('\tsucceeded\t'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await cli.run(['webhook', 'deliveries', String(hook.id)]);
    }
    expect(log.stdout.split('\t').slice(1, 6)).toEqual([String(event.id), 'release.created', 'succeeded', '1', '200']);

    const resend = await cli.run(['webhook', 'resend', String(hook.id), String(event.id)]);
    expect(resend.code, resend.stderr).toBe(0);
    const [, , resent] = await rx.waitFor(3);
    expect(resent!.headers['webhook-id']).toBe(`evt_${event.id}`);
    const json = await cli.run(['webhook', 'deliveries', String(hook.id), '--event', String(event.id), '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(2);

    const rotated = await cli.run(['webhook', 'rotate-secret', String(hook.id), '--overlap', '1h', '--json']);
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = JSON.parse(rotated.stdout);
    expect(fresh.secret).not.toBe(hook.secret);
    expect(Date.parse(fresh.previous_secret_expires_at) - Date.now()).toBeGreaterThan(3_500_000);

    const paused = await cli.run(['webhook', 'update', String(hook.id), '--disable', '--events', '*', '--json']);
    expect(JSON.parse(paused.stdout)).toMatchObject({ enabled: false, events: ['*'] });

    const refused = await cli.run(['webhook', 'delete', String(hook.id)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const deleted = await cli.run(['webhook', 'delete', String(hook.id), '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await cli.run(['webhook', 'test', String(hook.id)])).code).toBe(5);
  });

  it("says what is wrong in the user's terms: an unknown event type, a refused URL, an endpoint that does not answer", async () => {
    const bad = await cli.run(['webhook', 'create', 'http://127.0.0.1:9/h', '--events', 'approved,bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --events: unknown event type "bogus"/);
    const priv = await cli.run(['webhook', 'create', 'http://10.0.0.7/hooks']);
    expect(priv.code).toBe(3);
    expect(priv.stderr).toContain('10.0.0.7 resolves to 10.0.0.7, a private, link-local or reserved address');
    const dead = JSON.parse((await cli.run(['webhook', 'create', 'http://127.0.0.1:9/nothing', '--json'])).stdout);
    const test = await cli.run(['webhook', 'test', String(dead.id)]);
    expect(test.code).toBe(1);
    expect(test.stderr).toMatch(/^error: webhook \d+: the test ping was not delivered: ECONNREFUSED: could not reach 127\.0\.0\.1:9/);
    await cli.run(['webhook', 'delete', String(dead.id), '--yes']);
  });
});

describe('webhook listen', () => {
  it("forwards each event of the account after the cursor, signed, and prints a line per event with the receiver's status", async () => {
    const rx = await receiver();
    rx.answers.push(200, 503);
    const token = cli.server.tokens.label;
    await createRelease(cli.server, token, { title: 'Before' });
    const end = await fetch(`${cli.server.url}/events?last=1`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.json() as Promise<{ cursor: number }>,
    );
    const a = await createRelease(cli.server, token, { title: 'Listen A', catalog_number: 'WHL-0001' });
    await fetch(`${cli.server.url}/releases/${a.id}/metadata`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Listen A2' }),
    });
    await fetch(`${cli.server.url}/releases/${a.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    // Stopped by --timeout once the feed is quiet (exit 7), as Ctrl-C would (130).
    const r = await cli.run(['webhook', 'listen', '--forward-to', rx.url, '--events', 'created,updated', '--since', String(end.cursor), '--timeout', '3s'], {
      env: { RELDIST_LISTEN_SECRET: secret },
    });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain(`Signing secret: ${secret}\n`);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    // The deletion was not asked for; the receiver answered 200, then 503.
    expect(lines.map((l) => [l[2], l[3], l[4], l[5], l[6]])).toEqual([
      ['release.created', String(a.id), 'WHL-0001', '200', ''],
      ['release.updated', String(a.id), 'WHL-0001', '503', 'answered 503'],
    ]);
    expect(rx.received).toHaveLength(2);
    const payloads = rx.received.map((req) => verify(secret, req));
    expect(payloads.map((p) => p.data.id)).toEqual(lines.map((l) => Number(l[0])));
    expect(rx.received.map((req) => req.headers['webhook-id'])).toEqual(lines.map((l) => `evt_${l[0]}`));
  });

  it('refuses a --forward-to that is not an http URL, naming the flag', async () => {
    const r = await cli.run(['webhook', 'listen', '--forward-to', 'ftp://x/y']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --forward-to: expected an http or https URL/);
  });
});
