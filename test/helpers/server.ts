// Starts the real reference service on 127.0.0.1 (port 0) over a temporary data directory.
// Integration tests of every part use this; nothing here mocks the service.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartServerOptions } from '../../src/server/index.js';
import { ContractChecker } from './contract-check.js';
import { startContractProxy } from './contract-proxy.js';

export interface TestServer {
  url: string;
  tokens: { label: string; artist: string };
  dataDir: string;
  /** Errors the service logged (a 500's stack ends up here): print them when a test fails. */
  errors: string[];
  /** Warnings the service logged (clients it cut off, for one). */
  warnings: string[];
  /** Stops the service; removes the data directory unless it was passed in. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Reuse a data directory (e.g. to test a restart); it is then left in place on close. */
  dataDir?: string;
  /** Sandbox controls on (default true). */
  sandbox?: boolean;
  rateLimit?: StartServerOptions['rateLimit'];
  /** An artist directory instead of the seeded one. */
  artists?: StartServerOptions['artists'];
  /** A controllable clock, for time-dependent rules (never sleep in a test). */
  now?: () => Date;
  sandboxAutoReview?: StartServerOptions['sandboxAutoReview'];
  publicUrl?: string;
  trustProxy?: boolean;
  uploadLimits?: StartServerOptions['uploadLimits'];
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  clientLimits?: StartServerOptions['clientLimits'];
  /** Webhook retry horizon, timeout and allowed addresses. */
  webhooks?: StartServerOptions['webhooks'];
  /** Send webhook deliveries from this service (default true). */
  webhookDispatch?: boolean;
}

export async function makeTempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'reldist-test-'));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await makeTempDataDir());
  const errors: string[] = [];
  const warnings: string[] = [];
  const server = await startServer({
    logger: { info() {}, warn: (message) => warnings.push(message), error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields ?? {})}`) },
    host: '127.0.0.1',
    port: 0,
    dataDir,
    sandbox: options.sandbox ?? true,
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.artists !== undefined ? { artists: options.artists } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.sandboxAutoReview ? { sandboxAutoReview: options.sandboxAutoReview } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.trustProxy ? { trustProxy: true } : {}),
    ...(options.uploadLimits ? { uploadLimits: options.uploadLimits } : {}),
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    ...(options.maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress: options.maxConnectionsPerAddress } : {}),
    ...(options.clientLimits ? { clientLimits: options.clientLimits } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.webhookDispatch !== undefined ? { webhookDispatch: options.webhookDispatch } : {}),
  });
  if (!server.tokens) throw new Error('the test service started without its demo accounts');
  // RELDIST_CONTRACT_CHECK=1: every answer of this service, to whatever test sends the request,
  // passes a validating proxy of openapi.json, and stopping the service fails on any difference.
  const proxy =
    process.env.RELDIST_CONTRACT_CHECK === '1' ? await startContractProxy(server.url, new ContractChecker(undefined, { requests: false })) : undefined;
  return {
    url: proxy?.url ?? server.url,
    tokens: server.tokens,
    dataDir,
    errors,
    warnings,
    async close() {
      // The service first: requests in flight finish through the proxy.
      await server.close();
      await proxy?.close();
      if (owned) await rm(dataDir, { recursive: true, force: true });
      if (proxy && proxy.problems.length > 0) throw new Error(`answers off openapi.json:\n${[...new Set(proxy.problems)].join('\n')}`);
    },
  };
}

/** fetch with the bearer token and JSON body filled in. */
export async function api(
  server: { url: string },
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const init: RequestInit = { method, headers: { ...headers } };
  const h = init.headers as Record<string, string>;
  if (token !== undefined) h.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as any) : JSON.stringify(body);
  }
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  let parsed: unknown = text;
  if (text !== '' && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed };
}
