// Crash safety of `reldist release apply`: the built CLI is SIGKILLed at the k-th request of an
// apply (held at the fault proxy, either before the service saw it or after the service did the
// work and before the CLI heard), then run again without a kill; whatever k, the service must end
// with exactly the catalog: one release per catalog number, each submitted, each with its tracks
// once, no stray draft, and a plan with nothing left to do.
//
// Slow (some 75 CLI runs, ~40 s on the 2-core development machine): the kill points are a
// seeded sample of 1..K, K being the requests of a full run (46 for this catalog), alternately
// 'arrived' and 'answered'. RELDIST_KILL_POINTS=all takes every k in both phases (~2 minutes); a
// number takes a sample of that size. Nothing here asserts on time; the timeout only bounds a hang.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { runAndKill, type RunResult } from '../helpers/kill-run.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { ROOT, cliEnv } from './cli-e2e-helpers.js';

/** Releases in the catalog; release i has 1 + (i % 2) tracks. */
const RELEASES = 5;
/** Kill points tried by default (of K): with the seed, every kind of request of a run. */
const DEFAULT_SAMPLES = 24;
const SEED = 20261125;
/** Re-runs after a kill before the test gives up on convergence. */
const MAX_RERUNS = 2;
/** Bounds a hang; the loop takes well under this on the 2-core development machine. */
const TEST_TIMEOUT_MS = process.env.RELDIST_KILL_POINTS === 'all' ? 900_000 : 300_000;

// The smallest valid audio in the repository (FLAC tones of ~220 KB, stereo 16-bit 44.1 kHz,
// over 30 s): a 30 s WAV would be 5.3 MB per track and per run.
const AUDIO = [join(ROOT, 'examples/first-release/audio/first-light.flac'), join(ROOT, 'examples/first-release/audio/evening-tide.flac')];

interface CatalogRelease {
  file: string;
  catalogNumber: string;
  tracks: number;
}

/** Writes RELEASES release files (JSON) with catalog numbers `${prefix}-1`… into dir. */
async function writeCatalog(dir: string, prefix: string): Promise<CatalogRelease[]> {
  await mkdir(dir, { recursive: true });
  const out: CatalogRelease[] = [];
  for (let i = 1; i <= RELEASES; i++) {
    const catalogNumber = `${prefix}-${i}`;
    const tracks = 1 + (i % 2);
    const file = join(dir, `release-${i}.json`);
    const release = {
      type: 'single',
      title: `Kill Test ${i}`,
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'Northern Lights Records',
      catalog_number: catalogNumber,
      genre: 'Electronic',
      language: 'en',
      explicit: 'not_explicit',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
      tracks: AUDIO.slice(0, tracks).map((path, t) => ({
        file: path,
        title: `Part ${t + 1}`,
        audio_language: 'instrumental',
        contributors: [{ name: 'Nina Vale', role: 'composer' }],
      })),
      delivery: { platforms: 'all', territories: { mode: 'worldwide' }, release_date: '2030-01-11', price_tier: 'front' },
    };
    await writeFile(file, `${JSON.stringify(release, null, 2)}\n`);
    out.push({ file, catalogNumber, tracks });
  }
  return out;
}

type Phase = 'arrived' | 'answered';

/** The kill points to try, by request: every k in both phases, or a seeded sample alternating them. */
function killPoints(k: number, wanted: string | undefined, seed: number): { request: number; phase: Phase }[] {
  const all = Array.from({ length: k }, (_, i) => i + 1);
  if (wanted === 'all') return all.flatMap((request) => (['arrived', 'answered'] as const).map((phase) => ({ request, phase })));
  const alternate = (requests: number[]) => requests.map((request, i) => ({ request, phase: i % 2 === 0 ? ('arrived' as const) : ('answered' as const) }));
  const n = Math.min(k, Number(wanted ?? DEFAULT_SAMPLES) || DEFAULT_SAMPLES);
  if (n >= k) return alternate(all);
  // The first and last requests always: the edges are where a run is least like the others.
  const random = mulberry32(seed);
  const middle = all.slice(1, -1);
  for (let i = middle.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [middle[i], middle[j]] = [middle[j]!, middle[i]!];
  }
  return alternate([1, k, ...middle.slice(0, n - 2)].sort((a, b) => a - b));
}

interface ServiceRelease {
  id: number;
  status: string;
  catalog_number: string | null;
}

let server: TestServer;
let proxy: FaultProxy;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: false });
  // No random faults: only the kill hook of each run acts.
  proxy = await startFaultProxy({ target: server.url, seed: SEED, faults: {} });
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-kill-'));
  env = cliEnv({ url: proxy.url, token: server.tokens.label, configDir: config.dir });
});

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await config?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

const applyArgs = (dir: string) => ['release', 'apply', dir, '--submit', '--json'];

function apply(dir: string): Promise<RunResult> {
  return runAndKill({ args: applyArgs(dir), env, timeoutMs: 60_000 });
}

/** Every release of the account, through every page. */
async function allReleases(): Promise<ServiceRelease[]> {
  const out: ServiceRelease[] = [];
  for (let page = 1; page <= 1000; page++) {
    const res = await api(server, server.tokens.label, 'GET', `/releases?page=${page}&perPage=100`);
    if (res.status !== 200) throw new Error(`GET /releases: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...(res.body.data as ServiceRelease[]));
    if (res.body.data.length < 100) return out;
  }
  throw new Error('GET /releases: more than 1000 pages');
}

/**
 * What is wrong on the service, given every catalog applied so far (`expected`) and the catalog
 * just applied (`current`): one line per problem, empty when all is well.
 */
async function serviceProblems(expected: Map<string, number>, current: CatalogRelease[]): Promise<string[]> {
  const problems: string[] = [];
  const releases = await allReleases();
  const seen = new Map<string, number[]>();
  for (const r of releases) {
    const key = r.catalog_number?.trim().toLowerCase() ?? '';
    if (!expected.has(key)) problems.push(`stray release ${r.id} (${r.status}, catalog number ${JSON.stringify(r.catalog_number)}): in no catalog`);
    else seen.set(key, [...(seen.get(key) ?? []), r.id]);
    if (r.status !== 'in_review') problems.push(`release ${r.id} (${r.catalog_number}) is ${r.status}, not in_review`);
  }
  for (const key of expected.keys()) {
    const ids = seen.get(key) ?? [];
    if (ids.length !== 1) problems.push(`catalog number ${key}: ${ids.length} releases (${ids.join(', ')}), expected 1`);
  }
  for (const c of current) {
    const ids = seen.get(c.catalogNumber.toLowerCase()) ?? [];
    if (ids.length !== 1) continue;
    const res = await api(server, server.tokens.label, 'GET', `/releases/${ids[0]}`);
    const tracks = (res.body.tracks ?? []) as { disc: number; position: number; file: { sha256: string } | null }[];
    const slots = new Set(tracks.map((t) => `${t.disc}/${t.position}`));
    if (tracks.length !== c.tracks || slots.size !== tracks.length) {
      problems.push(
        `release ${ids[0]} (${c.catalogNumber}): ${tracks.length} tracks at ${[...tracks.map((t) => `${t.disc}/${t.position}`)].join(', ')}, expected ${c.tracks}`,
      );
    }
    if (tracks.some((t) => t.file === null)) problems.push(`release ${ids[0]} (${c.catalogNumber}): a track without audio`);
  }
  return problems;
}

/** "request 7 (POST /releases/{releaseId}/submit) answered" */
function describeKill(k: number, phase: string): string {
  const event = proxy.stats.events[k - 1];
  return `request ${k}${event ? ` (${event.method} ${event.route})` : ''} ${phase}`;
}

describe('release apply, killed at any request', () => {
  it('always ends with the catalog: one submitted release per catalog number, its tracks once, nothing stray', { timeout: TEST_TIMEOUT_MS }, async () => {
    const expected = new Map<string, number>();
    const note = (catalog: CatalogRelease[]) => catalog.forEach((c) => expected.set(c.catalogNumber.toLowerCase(), c.tracks));

    // A full run without a kill gives K; a second run must not write anything (converged).
    const calibration = await writeCatalog(join(work, 'calibration'), 'CAL');
    note(calibration);
    proxy.resetStats();
    const full = await apply(join(work, 'calibration'));
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout.trim().split('\n')).toHaveLength(RELEASES);
    // Parallel runs vary a little in length (a wait, a read again): K is the shorter of two full
    // runs, so that a kill point near the end is one every run reaches.
    const second = await writeCatalog(join(work, 'calibration-2'), 'CAL2');
    note(second);
    const lengths = [proxy.stats.requests];
    proxy.resetStats();
    expect((await apply(join(work, 'calibration-2'))).code).toBe(0);
    lengths.push(proxy.stats.requests);
    const k = Math.min(...lengths);
    proxy.resetStats();
    const again = await apply(join(work, 'calibration'));
    expect(again.code, again.stderr).toBe(0);
    const writes = proxy.stats.events.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.route}`);
    expect(writes, 'a second apply of an applied catalog writes nothing').toEqual([]);
    expect(await serviceProblems(expected, calibration)).toEqual([]);

    const points = killPoints(k, process.env.RELDIST_KILL_POINTS, SEED);
    const found: string[] = [];
    let notReached = 0;
    for (const { request, phase } of points) {
      const dir = join(work, `k${request}${phase}`);
      const catalog = await writeCatalog(dir, `K${request}${phase.slice(0, 3).toUpperCase()}`);
      note(catalog);
      proxy.resetStats();
      const killed = await runAndKill({ args: applyArgs(dir), env, timeoutMs: 60_000, killAt: { proxy, request, phase } });
      const where = killed.killed ? describeKill(request, phase) : `request ${request} ${phase} (not reached: the run ended first)`;
      if (!killed.killed) notReached++;

      let rerun: RunResult | undefined;
      for (let attempt = 1; attempt <= MAX_RERUNS + 1; attempt++) {
        rerun = await apply(dir);
        if (rerun.code === 0) break;
      }
      if (rerun?.code !== 0) {
        found.push(
          `killed at ${where}: apply did not succeed in ${MAX_RERUNS + 1} runs after; last exit ${rerun?.code}: ${rerun?.stderr.trim().split('\n').slice(-3).join(' | ')}`,
        );
      }
      for (const p of await serviceProblems(expected, catalog)) found.push(`killed at ${where}: ${p}`);

      const plan = await runAndKill({ args: ['release', 'apply', dir, '--plan'], env, timeoutMs: 60_000 });
      if (plan.code !== 0) found.push(`killed at ${where}: --plan exited ${plan.code}: ${plan.stderr.trim().split('\n').at(-1)}`);
      else if (!/\b0 to create, 0 to update, 0 to submit\b/.test(plan.stdout))
        found.push(`killed at ${where}: --plan still has work: ${plan.stdout.trim().split('\n').at(-1)}`);
    }
    // Every point but perhaps the very last (parallel runs vary a little in length).
    expect(notReached, `kill points not reached (full runs made ${lengths.join(' and ')} requests)`).toBeLessThanOrEqual(2);
    expect(found).toEqual([]);
  });
});
