// A mock of the service built from openapi.json alone, as a third party would stand one up: each
// request is matched to its operation and answered with that operation's documented example
// (status, X-Request-Id, body). Requests are checked against the document first (contract-check.ts),
// and what does not match is recorded in `problems` and answered 400. Absolute URLs in examples
// that start with the document's server address are given the mock's own address, so that a
// client follows them (the upload address) to the mock.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractChecker, type Exchange } from './contract-check.js';

export interface ContractMock {
  url: string;
  problems: string[];
  /** operationIds answered, in order. */
  answered: string[];
  close(): Promise<void>;
}

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startContractMock(checker = new ContractChecker()): Promise<ContractMock> {
  const problems: string[] = [];
  const answered: string[] = [];
  const documented = (checker.doc.servers as { url: string }[])[0]!.url;
  let own = '';
  const server = createServer(async (req, res) => {
    let requestBody: Buffer;
    try {
      requestBody = await readAll(req);
    } catch {
      return; // the client went away mid-body: nothing to answer
    }
    const pathname = new URL(req.url!, 'http://x').pathname;
    const matched = checker.operationOf(req.method!, pathname);
    if (!matched) {
      problems.push(`${req.method} ${pathname}: no operation in the document`);
      res.writeHead(404).end();
      return;
    }
    const { operation } = matched;
    const [status, declared] = Object.entries(operation.responses as Record<string, Record<string, any>>).find(([s]) => s.startsWith('2'))!;
    const response = checker.resolve(declared);
    const media = response.content['application/json'];
    // Several documented shapes (an upload: a track's file or a cover): the first example.
    const named = media.examples ? Object.values(media.examples as Record<string, { value: unknown }>)[0]?.value : undefined;
    const example = media.example ?? named ?? checker.resolve(media.schema).examples?.[0];
    const body = Buffer.from(JSON.stringify(example).replaceAll(documented, own));
    const headers = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_9b1f0c6d2a' };
    // The request as the document says it must be: the answer is checked too, as a sanity check of the mock.
    const exchange: Exchange = {
      method: req.method!,
      url: req.url!,
      requestHeaders: req.headers as Record<string, string>,
      requestBody,
      status: Number(status),
      responseHeaders: headers,
      responseBody: body,
    };
    const found = checker.check(exchange);
    if (found.length > 0) {
      problems.push(...found);
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { status: 400, code: 'bad_request', message: found[0], request_id: 'req_mock' } }));
      return;
    }
    answered.push(operation.operationId as string);
    res.writeHead(Number(status), headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: own,
    problems,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
