// A webhook receiver on 127.0.0.1 for tests: records every request (headers, raw body) and answers
// as the test says (a status per request, or a hang), so tests can check what the service sent
// with the unmodified standardwebhooks library.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = number | { hangMs: number } | { redirect: string };

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered, in order; once used up, `fallback`. */
  answers: Answer[];
  fallback: Answer;
  /** Resolves when `n` requests have arrived (bounded: rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(fallback: Answer = 200): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const r: Receiver = {
    url: '',
    received,
    answers: [],
    fallback,
    waitFor(n, ms = 10_000) {
      if (received.length >= n) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${received.length} of ${n} requests after ${ms} ms`)), ms);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
      for (const w of waiters.slice()) {
        if (received.length < w.n) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = r.answers.shift() ?? r.fallback;
      if (typeof answer === 'number') return void res.writeHead(answer).end();
      if ('redirect' in answer) return void res.writeHead(302, { location: answer.redirect }).end();
      hanging.add(res);
      setTimeout(() => {
        hanging.delete(res);
        res.writeHead(200).end();
      }, answer.hangMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return r;
}

/** Verifies a request with the standardwebhooks library and the secret: the parsed payload, or throws. */
export function verify(secret: string, req: Received): any {
  return new Webhook(secret).verify(req.body, {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  });
}
