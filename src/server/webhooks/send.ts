// One HTTP attempt of a delivery: a POST with a short timeout over the whole exchange, never a
// redirect followed (a 3xx is a failed attempt), only to an address the policy allows (checked
// at connection time), the answer's body read and dropped (at most 64 KiB of it). Never inside a
// database transaction: the change that caused the event never waits for a receiver.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { AddressRefused, guardedLookup, hostOf, refusal, type AddressPolicy } from './address.js';

export interface SendResult {
  delivered: boolean;
  statusCode: number | null;
  /** Why it was not delivered, in words; never a secret (the URL's query is left out). */
  error: string | null;
  durationMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export interface SendOptions {
  timeoutMs: number;
  policy: AddressPolicy;
  signal?: AbortSignal;
}

function failure(started: number, error: string, statusCode: number | null = null): SendResult {
  return { delivered: false, statusCode, error, durationMs: Math.round(performance.now() - started) };
}

export function postWebhook(urlText: string, headers: Record<string, string>, body: string, o: SendOptions): Promise<SendResult> {
  const started = performance.now();
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return Promise.resolve(failure(started, 'not a valid URL'));
  }
  const host = hostOf(url);
  if (isIP(host)) {
    const why = refusal(host, o.policy);
    if (why) return Promise.resolve(failure(started, `${host} ${why}`));
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'reldist-webhooks/1' },
    lookup: guardedLookup(o.policy),
    // One connection per attempt: nothing of one receiver's socket outlives its attempt.
    agent: false,
  };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(r);
    };
    const req = request(url, options, (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) finish();
      });
      const finish = () => {
        const ok = status >= 200 && status < 300;
        done({
          delivered: ok,
          statusCode: status,
          error: ok ? null : status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`,
          durationMs: Math.round(performance.now() - started),
        });
      };
      res.on('end', finish);
      res.on('error', () => finish());
    });
    const timer = setTimeout(() => done(failure(started, `no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    const onAbort = () => done(failure(started, 'the service stopped during the attempt'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => {
      done(failure(started, err instanceof AddressRefused ? err.message : `${err.code ?? 'error'}: could not reach ${url.host}`));
    });
    req.end(body);
  });
}
