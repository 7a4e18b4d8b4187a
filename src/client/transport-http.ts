// A small transport on node:http with a keep-alive agent. node:http's parser is native and is
// already part of Node's start-up snapshot, so a one-shot command pays almost nothing for it.
import http from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { TransportError, defaultTimeouts, flattenHeaders, type Timeouts, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

export async function createHttpTransport(timeouts: Timeouts = defaultTimeouts): Promise<Transport> {
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let https: { agent: HttpsAgent; request: typeof http.request } | undefined;

  async function clientFor(url: URL) {
    if (url.protocol === 'http:') return { request: http.request, agent: httpAgent as http.Agent | HttpsAgent };
    if (url.protocol !== 'https:') throw new TransportError(`unsupported protocol ${url.protocol}`, 'EPROTO');
    // TLS is loaded only when a request needs it.
    if (!https) {
      const mod = await import('node:https');
      https = { agent: new mod.Agent({ keepAlive: true, maxSockets: 8 }), request: mod.request as typeof http.request };
    }
    return https;
  }

  return {
    kind: 'http',
    async send(req: TransportRequest): Promise<TransportResponse> {
      const { request, agent } = await clientFor(req.url);
      return new Promise<TransportResponse>((resolve, reject) => {
        let settled = false;
        const fail = (err: unknown) => {
          if (settled) return;
          settled = true;
          reject(err);
        };
        const r = request(req.url, { method: req.method, headers: req.headers, agent, signal: req.signal });
        let connectTimer: NodeJS.Timeout | undefined;
        r.on('socket', (socket) => {
          // A reused keep-alive socket is already connected.
          if ((socket as { connecting?: boolean }).connecting) {
            connectTimer = setTimeout(() => r.destroy(new TransportError(`connect timeout after ${timeouts.connectMs} ms`, 'ETIMEDOUT')), timeouts.connectMs);
            socket.once('connect', () => clearTimeout(connectTimer));
          }
        });
        r.setTimeout(timeouts.idleMs, () => r.destroy(new TransportError(`no answer for ${timeouts.idleMs} ms`, 'ETIMEDOUT')));
        r.on('error', (err) => {
          clearTimeout(connectTimer);
          fail(err);
        });
        r.on('response', (res) => {
          clearTimeout(connectTimer);
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: flattenHeaders(res.headers),
            text: () =>
              new Promise<string>((ok, ko) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
                res.on('error', ko);
                r.on('error', ko);
              }),
          });
        });
        const body = typeof req.body === 'function' ? req.body() : req.body;
        if (body instanceof Readable) {
          body.on('error', (err) => r.destroy(err));
          body.pipe(r);
        } else {
          r.end(body);
        }
      });
    },
    async close() {
      httpAgent.destroy();
      https?.agent.destroy();
    },
  };
}
