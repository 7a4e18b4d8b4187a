// `release apply --submit` of 50 releases through a seeded fault-injecting proxy (requests dropped
// before and after the service saw them, 503s, delays): re-run until it converges (at most 3
// runs), then exactly one release per catalog number, every one in review, no stray draft.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { makeWav } from '../helpers/audio.js';
import { useCli } from './cli-harness.js';
import { releaseYaml } from '../helpers/release-yaml.js';

const COUNT = 50;
const cli = useCli();
let work: string;
let proxy: FaultProxy;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-faults-'));
  // The smallest audio the submit rules take: 30 s of 16-bit stereo at 44.1 kHz, shared by every file.
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
  await mkdir(join(work, 'releases'));
  for (let i = 0; i < COUNT; i++) {
    await writeFile(join(work, 'releases', `r${String(i).padStart(2, '0')}.yaml`), releaseYaml(`FLT-${i}`, { audio: join(work, 'a.wav') }));
  }
  proxy = await startFaultProxy({
    target: cli.server.url,
    seed: 42,
    faults: { dropBefore: 0.08, dropAfter: 0.08, unavailable: 0.08, delay: 0.1, delayMs: [5, 40] },
  });
});
afterAll(async () => {
  await proxy?.close();
  await rm(work, { recursive: true, force: true });
});

it('converges to one release per catalog number, all in review, through dropped requests and 503s', { timeout: 120_000 }, async () => {
  const started = Date.now();
  let runs = 0;
  let code = -1;
  for (; runs < 3 && code !== 0; runs++) {
    const r = await cli.run(['release', 'apply', join(work, 'releases'), '--submit', '--json', '--parallel', '4'], { url: proxy.url });
    code = r.code;
  }
  const faults = proxy.stats.byDecision;
  expect(code).toBe(0);
  expect(faults.dropBefore + faults.dropAfter + faults.unavailable).toBeGreaterThan(10);

  const client = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label, transport: 'undici' });
  const all = await client.all('listReleases', { query: { perPage: 100 } });
  await client.close();
  const byNumber = new Map<string, number>();
  for (const r of all) byNumber.set(String(r.catalog_number), (byNumber.get(String(r.catalog_number)) ?? 0) + 1);
  expect(all).toHaveLength(COUNT);
  expect([...byNumber.values()].every((n) => n === 1)).toBe(true);
  expect(all.filter((r) => r.status !== 'in_review')).toEqual([]);
  // For the report: runs, faults and time (never asserted on).
  console.log(`apply faults: ${runs} run(s), ${JSON.stringify(faults)}, ${Date.now() - started} ms`);
});
