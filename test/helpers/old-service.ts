// A service as an older release of it answers: everything passes through to the real service,
// but GET /events does not exist there (404, the service's own error body for an unknown path).
// For clients' fallbacks when the event log is missing (`release watch` polls instead).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OldService {
  url: string;
  /** Requests by 'METHOD /path' (no query), in arrival order. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startOldService(target: string): Promise<OldService> {
  const to = new URL(target);
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push(`${req.method} ${path}`);
    if (path === '/events' || path.startsWith('/events/')) {
      const body = JSON.stringify({ error: { status: 404, code: 'not_found', message: `no endpoint ${req.method} ${path}`, request_id: 'req_old_service' } });
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'req_old_service' }).end(body);
      return;
    }
    const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
