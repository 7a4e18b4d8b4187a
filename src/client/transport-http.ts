// A small transport on node:http with a keep-alive agent. node:http's parser is native and is
// already part of Node's start-up snapshot, so a one-shot command pays almost nothing for it.
import http from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { TransportError, defaultTimeouts, flattenHeaders, type Timeouts, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** How long to wait for 100 Continue before sending the body anyway. */
const CONTINUE_WAIT_MS = 1000;

/**
 * Writes chunks as they come, each handed to the kernel before the next is asked for: the source
 * may then reuse its buffers (no garbage per chunk), and it reads ahead while a chunk is on its way
 * (faster than a pipe of a file stream, which reads only after a drain).
 */
async function writeChunks(r: http.ClientRequest, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const chunk of chunks) {
      if (r.destroyed) return;
      await new Promise<void>((resolve) => {
        const go = () => {
          r.off('close', go);
          resolve();
        };
        r.on('close', go);
        r.write(chunk, go);
      });
    }
    if (!r.destroyed) r.end();
  } catch (err) {
    r.destroy(err instanceof Error ? err : new Error(String(err)));
  }
}

export async function createHttpTransport(timeouts: Timeouts = defaultTimeouts): Promise<Transport> {
  // The idle timeout is the socket's, set once when the agent opens it (node:http then reports it
  // on the request using the socket), not set and cleared again on every request of a kept-alive
  // socket: a 500-release submit spends measurably less CPU per request.
  const agentOptions = { keepAlive: true, maxSockets: 8, timeout: timeouts.idleMs };
  const httpAgent = new http.Agent(agentOptions);
  let https: { agent: HttpsAgent; request: typeof http.request } | undefined;

  async function clientFor(url: URL) {
    if (url.protocol === 'http:') return { request: http.request, agent: httpAgent as http.Agent | HttpsAgent };
    if (url.protocol !== 'https:') throw new TransportError(`unsupported protocol ${url.protocol}`, 'EPROTO');
    // TLS is loaded only when a request needs it.
    if (!https) {
      const mod = await import('node:https');
      https = { agent: new mod.Agent(agentOptions), request: mod.request as typeof http.request };
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
        const expectContinue = req.expectContinue === true && typeof req.body === 'function';
        const headers = expectContinue ? { ...req.headers, expect: '100-continue' } : req.headers;
        const r = request(req.url, { method: req.method, headers, agent, signal: req.signal });
        let bodySent = !expectContinue;
        let connectTimer: NodeJS.Timeout | undefined;
        r.on('socket', (socket) => {
          // A reused keep-alive socket is already connected.
          if ((socket as { connecting?: boolean }).connecting) {
            connectTimer = setTimeout(() => r.destroy(new TransportError(`connect timeout after ${timeouts.connectMs} ms`, 'ETIMEDOUT')), timeouts.connectMs);
            socket.once('connect', () => clearTimeout(connectTimer));
          }
        });
        r.on('timeout', () => r.destroy(new TransportError(`no answer for ${timeouts.idleMs} ms`, 'ETIMEDOUT')));
        r.on('error', (err) => {
          clearTimeout(connectTimer);
          fail(err);
        });
        r.on('response', (res) => {
          clearTimeout(connectTimer);
          settled = true;
          // Answered before the body was asked for (a refusal): it is never sent, and the
          // connection, left mid-request, is not reused.
          if (!bodySent) {
            bodySent = true;
            clearTimeout(continueTimer);
            res.once('end', () => r.destroy());
          }
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
        const sendBody = () => {
          const body = typeof req.body === 'function' ? req.body() : req.body;
          if (body instanceof Readable) {
            body.on('error', (err) => r.destroy(err));
            body.pipe(r);
          } else if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
            void writeChunks(r, body);
          } else {
            r.end(body);
          }
        };
        let continueTimer: NodeJS.Timeout | undefined;
        if (expectContinue) {
          const go = () => {
            clearTimeout(continueTimer);
            if (bodySent) return;
            bodySent = true;
            sendBody();
          };
          r.once('continue', go);
          // A server (or proxy) that ignores Expect never sends 100: after a second, send anyway, as curl does.
          r.once('socket', (socket) => {
            const start = () => (continueTimer = setTimeout(go, CONTINUE_WAIT_MS));
            if ((socket as { connecting?: boolean }).connecting) socket.once('connect', start);
            else start();
          });
        } else {
          sendBody();
        }
      });
    },
    async close() {
      httpAgent.destroy();
      https?.agent.destroy();
    },
  };
}
