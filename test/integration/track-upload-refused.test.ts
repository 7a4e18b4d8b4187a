// A refused upload is not sent again: `track upload` on addresses that have expired by the time
// the bytes arrive makes exactly one PUT per file (counted at a proxy in front of the service),
// and says why in the user's terms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { runCli, useCli, writeWav } from './cli-harness.js';

let clock = 0;
const cli = useCli({ now: () => new Date(Date.now() + clock) });
let proxy: FaultProxy;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-refused-'));
  // Every upload address has expired when its bytes arrive: the clock jumps two hours on each PUT.
  proxy = await startFaultProxy({
    target: cli.server.url,
    seed: 1,
    faults: {},
    onRequest: (e) => {
      if (e.method === 'PUT' && e.path.startsWith('/uploads/')) clock += 2 * 3600_000;
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await rm(work, { recursive: true, force: true });
});

test('an expired upload address: one PUT per file, no resend, and the reason', async () => {
  const created = await cli.run(['release', 'create', '--type', 'single', '--title', 'Tide', '--artist', 'Nina Vale', '--label', 'Northern Lights Records']);
  expect(created.code, created.stderr).toBe(0);
  await writeWav(join(work, 'a.wav'), { seconds: 31 });
  await writeWav(join(work, 'b.wav'), { seconds: 31, hz: 550 });
  const r = await runCli(['track', 'upload', '1', join(work, 'a.wav'), join(work, 'b.wav')], {
    url: proxy.url,
    token: cli.server.tokens.label,
    configDir: cli.configDir,
  });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/expired/);
  const puts = proxy.stats.events.filter((e) => e.method === 'PUT' && e.path.startsWith('/uploads/'));
  expect(puts.length).toBe(2);
  expect(new Set(puts.map((e) => e.path)).size).toBe(puts.length);
});
