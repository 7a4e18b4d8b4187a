// A validating reverse proxy on 127.0.0.1: put it between a client and the real service and
// every exchange is checked against openapi.json (contract-check.ts); `problems` lists what the
// document does not say. Bodies are buffered (the test traffic is small), the Host header passes
// through unchanged, so the service's upload addresses point at the proxy and uploads are checked
// too.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractChecker, type Exchange } from './contract-check.js';

export interface ContractProxy {
  url: string;
  /** The document the exchanges are checked against. */
  doc: Record<string, any>;
  /** One line per difference from the document, in arrival order. */
  problems: string[];
  /** Every exchange seen, as `METHOD /path/template status`. */
  seen: string[];
  /** The first answer of each operation, by `operationId status`: what examples are compared with. */
  answers: Map<string, unknown>;
  close(): Promise<void>;
}

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const flat = (headers: IncomingHttpHeaders): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));

export async function startContractProxy(target: string, checker = new ContractChecker()): Promise<ContractProxy> {
  const problems: string[] = [];
  const seen: string[] = [];
  const answers = new Map<string, unknown>();
  const origin = new URL(target);
  const server = createServer(async (req, res) => {
    const pathname = new URL(req.url!, 'http://x').pathname;
    // The request body streams through (a copy is kept for the check), so a client that stops
    // halfway stops the upstream request halfway too, as it would without the proxy.
    const chunks: Buffer[] = [];
    let clientGone = false;
    try {
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        const headers = { ...req.headers };
        delete headers.expect; // the proxy said continue already
        // A connection per exchange: a pooled one the service is closing (after a refused upload)
        // would fail the next request with EPIPE, which is the proxy's doing, not the service's.
        const out = httpRequest({ host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers, agent: false }, resolve);
        out.on('error', reject);
        req.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          out.write(chunk);
        });
        req.on('end', () => out.end());
        req.on('close', () => {
          if (!req.complete) {
            clientGone = true;
            out.destroy();
          }
        });
      });
      const requestBody = Buffer.concat(chunks);
      const responseBody = await readAll(answer);
      const exchange: Exchange = {
        method: req.method!,
        url: req.url!,
        requestHeaders: flat(req.headers),
        requestBody,
        status: answer.statusCode!,
        responseHeaders: flat(answer.headers),
        responseBody,
      };
      seen.push(`${req.method} ${checker.pathOf(pathname, req.method) ?? pathname} ${answer.statusCode}`);
      problems.push(...checker.check(exchange));
      const operationId = checker.operationOf(req.method!, pathname)?.operation.operationId as string | undefined;
      const key = `${operationId} ${answer.statusCode}`;
      if (operationId && !answers.has(key) && responseBody.length > 0 && (answer.headers['content-type'] ?? '').includes('json')) {
        answers.set(key, JSON.parse(responseBody.toString('utf8')));
      }
      const headers = { ...answer.headers };
      delete headers['transfer-encoding'];
      headers['content-length'] = String(responseBody.length);
      res.writeHead(answer.statusCode!, headers);
      res.end(responseBody);
    } catch (e) {
      // A client that went away, or a service that stopped, answers nothing to check.
      if (!clientGone && (e as NodeJS.ErrnoException).code !== 'ECONNREFUSED')
        problems.push(
          `${req.method} ${pathname} (query: ${[...new URL(req.url!, 'http://x').searchParams.keys()].join(', ')}; ${chunks.reduce((n, c) => n + c.length, 0)} bytes sent): proxy failed: ${(e as Error).message}`,
        );
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    doc: checker.doc,
    problems,
    seen,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
