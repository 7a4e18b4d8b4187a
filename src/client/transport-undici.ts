// undici for long work: uploads, batches, proxies. Loading it costs start-up time (see
// docs/startup.md), so only the commands that do long work ask for it.
import { Readable } from 'node:stream';
import { TransportError, defaultTimeouts, proxyConfigured, type Timeouts, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
import { tameWasmCompilation } from './v8-flags.js';

export async function createUndiciTransport(env: Readonly<Record<string, string | undefined>>, timeouts: Timeouts = defaultTimeouts): Promise<Transport> {
  tameWasmCompilation();
  const mod = await import('undici');
  // undici is CommonJS: bundled, its exports arrive as the default export; under tsx/vitest, as names.
  const { Agent, EnvHttpProxyAgent, request } = ((mod as unknown as { default?: typeof mod }).default ?? mod) as typeof mod;
  const options = {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.idleMs,
    bodyTimeout: timeouts.idleMs,
    keepAliveTimeout: 10_000,
  };
  // Proxy settings come from the environment we were given (not process.env), so a caller can
  // keep loopback traffic (the embedded sandbox) off the proxy.
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const proxy = { httpProxy: pick('HTTP_PROXY'), httpsProxy: pick('HTTPS_PROXY'), noProxy: pick('NO_PROXY') };
  const dispatcher = proxyConfigured(env)
    ? new EnvHttpProxyAgent({ ...options, ...Object.fromEntries(Object.entries(proxy).filter(([, v]) => v !== undefined)) })
    : new Agent(options);

  return {
    kind: 'undici',
    async send(req: TransportRequest): Promise<TransportResponse> {
      const made = typeof req.body === 'function' ? req.body() : req.body;
      // undici takes a stream, not any async iterable.
      const body =
        made === undefined || typeof made === 'string' || made instanceof Uint8Array || made instanceof Readable
          ? made
          : Readable.from(copied(made), { objectMode: false });
      try {
        const res = await request(req.url, {
          method: req.method as 'GET',
          headers: req.headers,
          body: body ?? null,
          dispatcher,
          signal: req.signal ?? null,
        });
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        }
        return { status: res.statusCode, statusText: '', headers, text: () => res.body.text() };
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'UND_ERR_CONNECT_TIMEOUT') throw new TransportError(`connect timeout after ${timeouts.connectMs} ms`, 'ETIMEDOUT', err);
        throw err;
      }
    },
    async close() {
      await dispatcher.close();
    },
  };
}

/** Readable.from reads ahead of the socket, so the source's chunks (which it may reuse) are copied. */
async function* copied(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield Uint8Array.prototype.slice.call(chunk);
}
