// A reverse proxy for tests of uploads in parts, between the CLI and the real service (both on
// 127.0.0.1): it counts what goes up (each part request, its bytes, how many parts are in flight
// at once), can flip a byte of a chosen part request on its way (a corrupt part), and tells when a
// part is answered (to SIGKILL the CLI at an exact point). JSON answers have the service's origin
// rewritten to the proxy's, so that the upload addresses lead through it. Bodies are streamed.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PartSent {
  part: number;
  /** Bytes the proxy passed on (less than the part when the client died or the proxy dropped it). */
  bytes: number;
  status: number | undefined;
}

export interface UploadProxy {
  url: string;
  /** Every part request, in arrival order. */
  parts: PartSent[];
  /** PUTs of a whole file (the single request). */
  wholePuts: number;
  completions: number;
  /** The most part requests the service was receiving at once. */
  maxInFlight: number;
  /** Flip a byte of this request (1-based count of part requests), when set. */
  corruptRequest?: number;
  /** Called when a part's answer has come back from the service (before the client has it). */
  onPartAnswered?: (answered: number) => void;
  reset(): void;
  /** Resolves once no part request is on its way to the service (at most 5 s). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const PART = /^\/uploads\/upl_[0-9a-f]{32}\/parts\/(\d+)/;

export async function startUploadProxy(target: string): Promise<UploadProxy> {
  const origin = new URL(target).origin;
  let inFlight = 0;
  let answered = 0;
  const proxy: UploadProxy = {
    url: '',
    parts: [],
    wholePuts: 0,
    completions: 0,
    maxInFlight: 0,
    reset() {
      proxy.parts = [];
      proxy.wholePuts = 0;
      proxy.completions = 0;
      proxy.maxInFlight = 0;
      answered = 0;
      delete proxy.corruptRequest;
    },
    async settled() {
      for (let i = 0; i < 100 && inFlight > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const part = PART.exec(path);
    let sent: PartSent | undefined;
    let corrupt = false;
    if (part) {
      sent = { part: Number(part[1]), bytes: 0, status: undefined };
      proxy.parts.push(sent);
      corrupt = proxy.corruptRequest === proxy.parts.length;
      inFlight++;
      proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
    } else if (req.method === 'PUT' && path.startsWith('/uploads/')) proxy.wholePuts++;
    else if (req.method === 'POST' && /^\/uploads\/upl_[0-9a-f]{32}\/complete/.test(path)) proxy.completions++;
    let counted = Boolean(part);
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    const headers = { ...req.headers, host: new URL(target).host };
    delete headers.expect;
    const up = httpRequest(`${origin}${path}`, { method: req.method, headers }, (answer) => {
      const type = String(answer.headers['content-type'] ?? '');
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        done();
        let body = Buffer.concat(chunks);
        if (type.includes('json')) body = Buffer.from(body.toString('utf8').split(origin).join(proxy.url));
        const out = { ...answer.headers, 'content-length': String(body.length) };
        if (sent) {
          sent.status = answer.statusCode;
          proxy.onPartAnswered?.(++answered);
        }
        if (!res.destroyed) res.writeHead(answer.statusCode ?? 502, out).end(body);
      });
    });
    up.on('error', () => {
      done();
      res.destroy();
    });
    req.on('data', (chunk: Buffer) => {
      let c = chunk;
      if (corrupt) {
        c = Buffer.from(chunk);
        c[0] = (c[0] ?? 0) ^ 0xff;
        corrupt = false;
      }
      if (sent) sent.bytes += c.length;
      up.write(c);
    });
    req.on('end', () => up.end());
    // The client went away mid-body (killed): the service sees the request cut short.
    req.on('close', () => {
      if (!req.complete) {
        done();
        up.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
