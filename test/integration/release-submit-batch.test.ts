// `reldist release submit` of several releases, which goes through the batch endpoint: the same
// bytes and exit code as one submit per release (the path a service without the batch endpoint
// gets), a mixed batch, a re-run finding everything in review, and chunks in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { submitEach, submitMany } from '../../src/cli/commands/release/submit-batches.js';
import { publicOf, type Internal } from '../../src/cli/commands/release/submission.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { useCli, runCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const { run, json } = cli;

/** The example release (complete, with its audio) as a new draft with its own catalog number. */
async function readyDraft(n: number): Promise<string> {
  const r = await json(['release', 'create', '--file', 'examples/first-release/release.yaml', '--catalog-number', `BAT-${n}`]);
  return String(r.id);
}

/**
 * In front of the test service: everything passes, except POST /releases/submit, which gets the
 * 405 a service without the batch endpoint answers; counts the requests of each kind.
 */
let older: Server;
let olderUrl: string;
const seen = { batch: 0, single: 0, reads: 0 };
beforeAll(async () => {
  older = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method === 'POST' && req.url === '/releases/submit') {
      seen.batch++;
      res.writeHead(405, { 'content-type': 'application/json', allow: 'DELETE, GET' });
      res.end(
        JSON.stringify({
          error: { status: 405, code: 'method_not_allowed', message: 'POST is not allowed on /releases/submit; allowed: DELETE, GET', request_id: 'req_older' },
        }),
      );
      return;
    }
    if (req.method === 'POST' && /^\/releases\/[^/]+\/submit$/.test(req.url ?? '')) seen.single++;
    if (req.method === 'GET' && /^\/releases\/[^/]+$/.test(req.url ?? '')) seen.reads++;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
    const answer = await fetch(cli.server.url + req.url, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') out[k] = v;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
  olderUrl = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => older?.close(resolve));
});

const runOlder = (argv: string[], o: { tty?: boolean } = {}) => runCli(argv, { url: olderUrl, token: cli.server.tokens.label, configDir: cli.configDir, ...o });
const withoutRequestIds = (r: RunResult) => ({
  ...r,
  stdout: r.stdout.replace(/req_[\w-]+/g, 'req_<id>'),
  stderr: r.stderr.replace(/req_[\w-]+/g, 'req_<id>'),
});

describe('release submit of several releases', () => {
  let a: string;
  let b: string;
  let blocked: string;
  beforeAll(async () => {
    a = await readyDraft(1);
    b = await readyDraft(2);
    blocked = String((await json(['release', 'create', '--type', 'single', '--title', 'Empty', '--artist', 'Nina Vale', '--label', 'L'])).id);
  });

  it('prints the same bytes and exits the same as one submit per release (dry run: piped, terminal, --json)', async () => {
    const argv = ['release', 'submit', a, blocked, '999', b, a, '--dry-run'];
    for (const variant of [[], ['--json']] as string[][]) {
      for (const tty of [false, true]) {
        const before = { ...seen };
        const batched = await run([...argv, ...variant], { tty });
        const each = await runOlder([...argv, ...variant], { tty });
        expect(withoutRequestIds(batched)).toEqual(withoutRequestIds(each));
        expect(batched.code).toBe(5);
        // The older service was asked once for the batch, then per release.
        expect([seen.batch - before.batch, seen.single - before.single]).toEqual([1, 5]);
      }
    }
  });

  it('submits a mixed batch, each release on its own; a re-run finds them in review and exits 0', async () => {
    const r = await run(['release', 'submit', a, blocked, '999', b, a, '--json']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).map((o: any) => [o.release_id, o.outcome])).toEqual(
      [
        [a, 'submitted'],
        [blocked, 'blocked'],
        ['999', 'failed'],
        [b, 'submitted'],
        [a, 'already_in_review'],
      ].map(([id, outcome]) => [Number(id), outcome]),
    );
    const again = await run(['release', 'submit', a, b, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).map((o: any) => [o.release_id, o.outcome, o.status])).toEqual([
      [Number(a), 'already_in_review', 'in_review'],
      [Number(b), 'already_in_review', 'in_review'],
    ]);
    expect((await json(['release', 'get', blocked])).status).toBe('draft');
    const piped = await run(['release', 'submit', a, b]);
    expect([piped.code, piped.stdout, piped.stderr]).toEqual([0, `${a}\talready_in_review\t\t\t\t\t\n${b}\talready_in_review\t\t\t\t\t\n`, '']);
    // The refusals name the status: nothing is read again, through the batch or one by one.
    const reads = seen.reads;
    const older = await runOlder(['release', 'submit', a, b]);
    expect([older.code, older.stdout]).toEqual([piped.code, piped.stdout]);
    expect(seen.reads).toBe(reads);
  });

  it('cuts the ids into chunks sent in order; a release in two chunks is answered as in review the second time', async () => {
    const c = await readyDraft(3);
    const d = await readyDraft(4);
    const client = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label });
    try {
      const ids = [c, '999', d, blocked, c].map(Number);
      const dry = await submitMany(client, ids, { dryRun: true }, 2);
      const shown = (outcomes: Internal[]) => JSON.stringify(outcomes.map((o) => publicOf(o, false))).replace(/req_[\w-]+/g, 'req_<id>');
      expect(shown(dry)).toBe(shown(await submitEach(client, ids, { dryRun: true })));
      const real = await submitMany(client, ids, { dryRun: false }, 2);
      expect(real.map((o) => o.outcome)).toEqual(['submitted', 'failed', 'submitted', 'blocked', 'already_in_review']);
      expect(real.map((o) => o.exit)).toEqual([0, 5, 0, 3, 0]);
    } finally {
      await client.close();
    }
  });

  it('a batch whose answer was lost is sent again under its Idempotency-Key: each release submitted once, reported as submitted', async () => {
    const ids = [await readyDraft(5), await readyDraft(6), await readyDraft(7)];
    const proxy = await startFaultProxy({
      target: cli.server.url,
      seed: 5,
      faults: { dropAfter: 1 },
      maxConsecutiveFaults: 1,
      match: (method, path) => method === 'POST' && path === '/releases/submit',
    });
    try {
      const r = await run(['release', 'submit', ...ids, '--json', '--debug'], { url: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      // The service answered the retry from its record of the first attempt: submitted, not "already in review".
      expect(JSON.parse(r.stdout).map((o: any) => [o.release_id, o.outcome, o.status])).toEqual(ids.map((id) => [Number(id), 'submitted', 'in_review']));
      expect(r.stderr).toMatch(/^< idempotent-replayed: true$/m);
      const route = proxy.stats.byRoute['POST /releases/submit']!;
      expect(route.byDecision.dropAfter).toBe(1);
      expect(route.answered).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});
