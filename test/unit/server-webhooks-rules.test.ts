// The pure rules of webhooks: which secrets sign at a given time (rotation overlap on a controlled
// clock), the retry schedule within the horizon, and which addresses are loopback, private or public.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signDelivery, signingSecrets, newWebhookSecret } from '../../src/server/webhooks/sign.js';
import { DEFAULT_RETRY_HORIZON_MS, nextAttemptAt, retryDelayMs } from '../../src/server/webhooks/schedule.js';
import { addressKind, refusal } from '../../src/server/webhooks/address.js';

describe('signing secrets over a rotation', () => {
  it('signs with both secrets until the overlap ends, then with the new one only; every signature verifies with the library', () => {
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const endpoint = { secret: newSecret, previous_secret: oldSecret, previous_secret_expires_at: '2026-11-23T10:00:00.000Z' };
    expect(signingSecrets(endpoint, '2026-11-23T09:59:59.999Z')).toEqual([newSecret, oldSecret]);
    expect(signingSecrets(endpoint, '2026-11-23T10:00:00.000Z')).toEqual([newSecret]);
    expect(signingSecrets({ ...endpoint, previous_secret: null, previous_secret_expires_at: null }, '2026-11-23T09:00:00.000Z')).toEqual([newSecret]);
    const now = new Date();
    const body = '{"type":"release.approved"}';
    const headers = signDelivery('evt_7', now, body, [newSecret, oldSecret]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of [newSecret, oldSecret]) expect(new Webhook(s).verify(body, { ...headers })).toEqual({ type: 'release.approved' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });
});

describe('the retry schedule', () => {
  it('backs off exponentially (5 s, 30 s, 2 m, 10 m, 1 h … daily) with ±20 % jitter, and stops at the horizon', () => {
    const base = [1, 2, 3, 4, 5, 9, 20].map((n) => retryDelayMs(n, DEFAULT_RETRY_HORIZON_MS, 0.5));
    expect(base).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 86_400_000, 86_400_000]);
    expect(retryDelayMs(1, DEFAULT_RETRY_HORIZON_MS, 0)).toBe(4_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_HORIZON_MS, 0.999_999)).toBe(6_000);
    // Every attempt of a receiver that never answers falls within 3 days of the event.
    const t0 = 0;
    let now = t0;
    let attempts = 1;
    for (
      let next = nextAttemptAt(t0, now, 1, DEFAULT_RETRY_HORIZON_MS, 0.5);
      next !== null;
      next = nextAttemptAt(t0, now, attempts, DEFAULT_RETRY_HORIZON_MS, 0.5)
    ) {
      now = next;
      attempts++;
    }
    expect(attempts).toBe(11);
    expect(now).toBeLessThanOrEqual(DEFAULT_RETRY_HORIZON_MS);
    // A horizon of seconds shrinks the schedule, not below 20 ms a wait.
    expect(retryDelayMs(1, 10_000, 0.5)).toBe(20);
    expect(retryDelayMs(9, 10_000, 0.5)).toBe(Math.round(86_400_000 * (10_000 / DEFAULT_RETRY_HORIZON_MS)));
  });
});

describe('webhook addresses', () => {
  it('tells loopback, private, link-local, unique-local and mapped addresses from public ones', () => {
    for (const ip of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(addressKind(ip), ip).toBe('loopback');
    for (const ip of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'fe80::1',
      'fd12:3456::1',
      'fc00::1',
      '::',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      'ff02::1',
      '224.0.0.1',
    ]) {
      expect(addressKind(ip), ip).toBe('private');
    }
    for (const ip of ['93.184.215.14', '8.8.8.8', '2606:4700::6810:84e5', '::ffff:8.8.8.8', '172.32.0.1']) expect(addressKind(ip), ip).toBe('public');
    expect(refusal('127.0.0.1', 'loopback')).toBeNull();
    expect(refusal('127.0.0.1', 'public')).toMatch(/loopback address/);
    expect(refusal('10.0.0.1', 'loopback')).toMatch(/private, link-local or reserved/);
    expect(refusal('10.0.0.1', 'any')).toBeNull();
  });
});
