// The seam between the client's logic (retries, errors, tracing) and the wire. Two
// implementations: node:http for one-shot commands (cheap to start) and undici for long work
// (uploads, batches, proxies). See docs/startup.md for why there are two.
import type { Readable } from 'node:stream';

export interface Timeouts {
  /** TCP (and TLS) connect. */
  connectMs: number;
  /** Silence on the socket while waiting for headers or body bytes. */
  idleMs: number;
}

export const defaultTimeouts: Timeouts = { connectMs: 10_000, idleMs: 30_000 };

export interface TransportRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /**
   * A string/bytes body, or a factory so that a retry can open a fresh stream (or chunk source).
   * A chunk source may reuse a chunk's memory once the transport asks it for the next chunk: a
   * transport that keeps chunks longer copies them.
   */
  body?: string | Uint8Array | (() => Readable | AsyncIterable<Uint8Array>) | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Ask before sending a streamed body (Expect: 100-continue): a refusal then costs no bytes and
   * cannot turn into a broken pipe. node:http only; undici (behind a proxy) sends at once.
   */
  expectContinue?: boolean;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ", " (set-cookie aside, which we never use). */
  headers: Record<string, string>;
  text(): Promise<string>;
}

export interface Transport {
  readonly kind: 'http' | 'undici';
  send(req: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

/** A failure below HTTP, with a stable code (ECONNREFUSED, ECONNRESET, ETIMEDOUT…). */
export class TransportError extends Error {
  readonly code: string;
  constructor(message: string, code: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'TransportError';
    this.code = code;
  }
}

export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  // for…in: no array of entries per response (node:http's headers object has no prototype keys).
  for (const k in raw) {
    const v = raw[k];
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** True when the environment asks for a proxy: only undici's EnvHttpProxyAgent speaks it. */
export function proxyConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

/** Finds the most specific error code in a chain of causes (undici nests them). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    const next = (e as { cause?: unknown }).cause;
    if (!next) return typeof code === 'string' ? code : undefined;
    e = next;
  }
  return undefined;
}
