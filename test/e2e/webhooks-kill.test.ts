// At least once, across crashes: a spawned `reldist serve --sandbox` takes a stream of changes
// with a webhook receiver attached and is SIGKILLed mid-stream 10 times, then started once more.
// Every change the service acknowledged has exactly one event (its request id once in the log),
// and every event of the log reaches the receiver at least once, under its own webhook-id
// (evt_<event id>) and signed (verified by the unmodified standardwebhooks library): nothing
// lost, nothing delivered under a new id.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, cleanEnv } from './sandbox-helpers.js';
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver.js';
import { validRelease } from '../helpers/releases.js';

const KILLS = 10;

let child: ChildProcessWithoutNullStreams | undefined;
let rx: Receiver | undefined;
let work: string | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  await rx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function startServe(dataDir: string): Promise<{ base_url: string; tokens: { label: string } }> {
  const c = spawn(
    process.execPath,
    [binPath, 'serve', '--sandbox', '--port', '0', '--data-dir', dataDir, '--webhook-timeout', '2s', '--webhook-retry-horizon', '1h'],
    {
      env: cleanEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child = c;
  let out = '';
  let err = '';
  c.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
  return new Promise((resolve, reject) => {
    c.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)));
    });
    c.on('close', (code) => reject(new Error(`serve exited (${code}) before printing: ${err}`)));
  });
}

function killNow(): Promise<void> {
  const c = child!;
  return new Promise((resolve) => {
    c.once('close', () => resolve());
    c.kill('SIGKILL');
  });
}

describe('webhook deliveries across 10 SIGKILLs of the service', () => {
  it('loses no event and delivers none under a new id', async () => {
    work = await mkdtemp(join(tmpdir(), 'reldist-webhook-kill-'));
    const dataDir = join(work, 'service');
    rx = await startReceiver();
    let service = await startServe(dataDir);
    const token = service.tokens.label;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${service.base_url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const created = await call('POST', '/webhooks', { url: rx.url });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };

    const acknowledged: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      // A stream of changes from 4 writers; the kill comes in the middle of it.
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop && i < 200; i++) {
          try {
            const r = await call('POST', '/releases', { ...validRelease, title: `Kill ${round}.${w}.${i}` });
            if (r.status === 201) acknowledged.push(r.headers.get('x-request-id')!);
            await r.arrayBuffer();
          } catch {
            return; // the service is gone
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 250)));
      await killNow();
      stop = true;
      await Promise.all(writers);
      service = await startServe(dataDir);
    }

    // The last start stays up: the log is complete, and every event in it must arrive.
    const log: { id: number; actor: { request_id: string | null } }[] = [];
    for (let after = 0, more = true; more; ) {
      const page = (await (await call('GET', `/events?after=${after}&limit=500`)).json()) as { data: typeof log; has_more: boolean; cursor: number };
      log.push(...page.data);
      after = page.cursor;
      more = page.has_more;
    }
    expect(acknowledged.length).toBeGreaterThan(KILLS);
    const byRequest = new Map<string, number>();
    for (const e of log) if (e.actor.request_id) byRequest.set(e.actor.request_id, (byRequest.get(e.actor.request_id) ?? 0) + 1);
    expect(acknowledged.filter((id) => byRequest.get(id) !== 1)).toEqual([]);

    const ids = new Set(log.map((e) => `evt_${e.id}`));
    const seen = () => new Set(rx!.received.map((r) => String(r.headers['webhook-id'])));
    // Leases of attempts cut by a kill run out after the timeout (2 s) and a 5 s margin.
    for (let i = 0; i < 300 && [...ids].some((id) => !seen().has(id)); i++) await new Promise((r) => setTimeout(r, 100));
    const missing = [...ids].filter((id) => !seen().has(id));
    expect(missing).toEqual([]);
    // No delivery under an id the log does not have, and each payload is the event its id names.
    for (const req of rx.received) {
      const payload = verify(secret, req);
      expect(ids.has(String(req.headers['webhook-id']))).toBe(true);
      expect(`evt_${payload.data.id}`).toBe(req.headers['webhook-id']);
    }
    console.log(
      `webhooks-kill: ${KILLS} kills, ${acknowledged.length} acknowledged changes, ${log.length} events, ${rx.received.length} deliveries received (${rx.received.length - ids.size} repeated)`,
    );
  }, 120_000);
});
