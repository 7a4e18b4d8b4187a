// `release apply` when the service acts but its answers never arrive (the fault proxy drops every
// answer of one route after the service has read and answered it, retries included): the lines
// say what is true on the service, read again, never a state the release is not in.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { startFaultProxy, type FaultMode } from '../helpers/fault-proxy.js';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli } from './cli-harness.js';

const RELEASES = 3;
const cli = useCli();
let work: string;

interface Line {
  catalog_number: string;
  release_id: string | null;
  action: string;
  outcome: string;
  status: string | null;
  error: { message: string } | null;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-lost-'));
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Applies a fresh catalog with every request of `route` (method, path pattern) faulted by `mode`. */
async function applyWith(prefix: string, mode: FaultMode, method: string, path: RegExp): Promise<{ code: number; lines: Line[]; faulted: number }> {
  const dir = join(work, prefix);
  await mkdir(dir);
  for (let i = 0; i < RELEASES; i++) await writeFile(join(dir, `r${i}.yaml`), releaseYaml(`${prefix}-${i}`, { audio: join(work, 'a.wav') }));
  const proxy = await startFaultProxy({
    target: cli.server.url,
    seed: 3,
    faults: { [mode]: 1 },
    maxConsecutiveFaults: 1_000_000,
    match: (m, p) => m === method && path.test(p),
  });
  try {
    const r = await cli.run(['release', 'apply', dir, '--submit', '--json', '--parallel', '3'], { url: proxy.url });
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
    return { code: r.code, lines, faulted: proxy.stats.byDecision[mode] };
  } finally {
    await proxy.close();
  }
}

/** The service's releases of a catalog, read directly. */
async function releasesOf(prefix: string) {
  const client = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label, transport: 'undici' });
  try {
    return (await client.all('listReleases', { query: { perPage: 100 } })).filter((r) => String(r.catalog_number).startsWith(`${prefix}-`));
  } finally {
    await client.close();
  }
}

it('a submit whose answers are all lost: the release is read again, in review, and the line says submitted', { timeout: 60_000 }, async () => {
  const { code, lines, faulted } = await applyWith('LSUB', 'dropAfter', 'POST', /^\/releases\/\d+\/submit$/);
  expect(faulted).toBeGreaterThanOrEqual(RELEASES);
  expect(lines.map((l) => [l.outcome, l.status, l.error])).toEqual(lines.map(() => ['submitted', 'in_review', null]));
  expect(code).toBe(0);
  expect((await releasesOf('LSUB')).map((r) => r.status)).toEqual(Array(RELEASES).fill('in_review'));
});

it('a create whose answers are all lost: the draft is found by its catalog number and completed, once', { timeout: 60_000 }, async () => {
  const { code, lines, faulted } = await applyWith('LCRE', 'dropAfter', 'POST', /^\/releases$/);
  expect(faulted).toBeGreaterThanOrEqual(RELEASES);
  expect(lines.map((l) => [l.action, l.outcome, l.status])).toEqual(lines.map(() => ['create', 'submitted', 'in_review']));
  expect(code).toBe(0);
  const all = await releasesOf('LCRE');
  expect(all).toHaveLength(RELEASES);
  expect(all.map((r) => r.status)).toEqual(Array(RELEASES).fill('in_review'));
  expect(new Set(lines.map((l) => l.release_id))).toEqual(new Set(all.map((r) => r.id)));
});

it('a submit that never reaches the service: failed, and the message names the state read again (draft)', { timeout: 60_000 }, async () => {
  const { code, lines } = await applyWith('LNEV', 'dropBefore', 'POST', /^\/releases\/\d+\/submit$/);
  expect(code).toBe(1);
  const all = await releasesOf('LNEV');
  expect(all.map((r) => r.status)).toEqual(Array(RELEASES).fill('draft'));
  for (const l of lines) {
    expect(l).toMatchObject({ outcome: 'failed', status: 'draft' });
    expect(l.error?.message).toMatch(new RegExp(`^submitting failed: .*; release ${l.release_id} is draft; run`));
  }
});
