// Signing deliveries as Standard Webhooks lays it out, with the standardwebhooks library itself:
// one `v1,<base64>` signature per secret in use, space-separated, so that during a rotation's
// overlap a receiver holding either secret verifies the delivery.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new secret in the whsec_<base64> form receivers and the library take (24 random bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface EndpointSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The secrets that sign at `atIso`: the current one, and the previous one until its overlap ends. Pure. */
export function signingSecrets(e: EndpointSecrets, atIso: string): string[] {
  const previous = e.previous_secret !== null && e.previous_secret_expires_at !== null && atIso < e.previous_secret_expires_at;
  return previous ? [e.secret, e.previous_secret!] : [e.secret];
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of a delivery of `body` (the exact bytes sent), signed at `at` with each secret. */
export function signDelivery(msgId: string, at: Date, body: string, secrets: readonly string[]): SignedHeaders {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}
