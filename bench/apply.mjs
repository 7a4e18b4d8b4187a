#!/usr/bin/env node
// Apply benchmark: `reldist release apply DIR --submit --json --parallel P` on N release files (one
// small FLAC track each), against bench/apply-minimal.mjs, a plain node:http script making the same
// requests at the same concurrency, in the same session, interleaved round after round. Two cases:
// fresh (create, upload, submit N releases) and unchanged (the same N again: nothing to do). Each
// round takes fresh catalog-number prefixes. Prints median times and the median per-round ratio of
// throughputs, apply / minimal (target >= 0.8x); never passes or fails on absolute times. It fails
// only when a run fails or leaves the service short of N submitted releases.
//   node bench/apply.mjs [--releases 500] [--rounds 3] [--parallel 4] [--json] [--no-extra-ca]
// The service is a `reldist serve` over a temporary data directory, restarted (same data) before
// each measured run: its rate limit (3000 requests a minute per token, in memory) would otherwise
// throttle whichever case came later in a round. Needs a build; `npm run bench` builds first.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, startServe, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const minimal = join(root, 'bench', 'apply-minimal.mjs');
const argv = process.argv.slice(2);
const opt = (name, dflt) => numberFlag(argv, name, dflt);
const RELEASES = opt('--releases', 500);
const ROUNDS = opt('--rounds', 3);
const PARALLEL = opt('--parallel', 4);
const asJson = argv.includes('--json');
const noExtraCa = argv.includes('--no-extra-ca');
if (!(RELEASES >= 1) || !(ROUNDS >= 1) || !(PARALLEL >= 1)) {
  console.error('usage: node bench/apply.mjs [--releases 500] [--rounds 3] [--parallel 4] [--json] [--no-extra-ca]');
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/apply.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}

const { work, atExit, finish, fail } = benchRun('apply.mjs');
const dataDir = join(work, 'data');
let service;
atExit(() => service?.stop());

// SIGTERM (close()) lets requests in flight finish; the next start reuses the data directory.
const startService = () => startServe(bin, dataDir);

async function restartService() {
  await service?.close();
  service = await startService();
}

/** GET a path of the service: its JSON body. */
function get(path) {
  return new Promise((resolve, reject) => {
    request(service.url + path, { headers: { authorization: `Bearer ${service.token}`, accept: 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`GET ${path}: ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

const submittedCount = async () => (await get('/releases?status=in_review&perPage=1')).meta.total;

// One audio file for every release (the smallest valid audio of the repository, copied so the
// folder is self-contained); every release file names it.
const audio = join(work, 'track.flac');
copyFileSync(join(root, 'examples', 'first-release', 'audio', 'first-light.flac'), audio);

/** N release files (JSON) with catalog numbers `${prefix}-1`…, in a folder of their own. */
function writeCatalog(prefix) {
  const dir = join(work, prefix);
  mkdirSync(dir);
  for (let i = 1; i <= RELEASES; i++) {
    const release = {
      type: 'single',
      title: `Bench ${i}`,
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'Northern Lights Records',
      catalog_number: `${prefix}-${i}`,
      genre: 'Electronic',
      language: 'en',
      explicit: 'not_explicit',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
      tracks: [{ file: audio, title: `Bench ${i}`, audio_language: 'instrumental', contributors: [{ name: 'Nina Vale', role: 'composer' }] }],
      delivery: { platforms: 'all', territories: { mode: 'worldwide' }, release_date: '2030-01-11', price_tier: 'front' },
    };
    writeFileSync(join(dir, `${String(i).padStart(5, '0')}.json`), JSON.stringify(release));
  }
  return dir;
}

const env = { ...process.env, NO_COLOR: '1' };
for (const k of Object.keys(env)) if (k.startsWith('RELDIST_')) delete env[k];
if (noExtraCa) delete env.NODE_EXTRA_CA_CERTS;

const clients = {
  apply: (dir) => [bin, 'release', 'apply', dir, '--submit', '--json', '--parallel', String(PARALLEL)],
  minimal: (dir) => [minimal, dir, '--parallel', String(PARALLEL)],
};

/** Runs one client over a folder on a freshly restarted service: wall time in ms. */
async function measure(client, dir, caseName) {
  await restartService();
  const before = await submittedCount();
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, clients[client](dir), {
    env: { ...env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise((r) => child.once('close', r));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (code !== 0) fail(`${client} (${caseName}) exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const added = (await submittedCount()) - before;
  const want = caseName === 'fresh' ? RELEASES : 0;
  if (added !== want) fail(`${client} (${caseName}) left ${added} more releases in review, expected ${want}`);
  return ms;
}

const times = { apply: { fresh: [], unchanged: [] }, minimal: { fresh: [], unchanged: [] } };
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, and the first client alternates, so neither always meets a warmer service.
  const order = round % 2 === 0 ? ['apply', 'minimal'] : ['minimal', 'apply'];
  for (const client of order) {
    const dir = writeCatalog(`B${round}${client === 'apply' ? 'A' : 'M'}`);
    times[client].fresh.push(await measure(client, dir, 'fresh'));
    times[client].unchanged.push(await measure(client, dir, 'unchanged'));
  }
}

// Throughput ratio apply / minimal = minimal's time / apply's time, per round, then the median.
const ratio = (c) => median(times.apply[c].map((t, r) => times.minimal[c][r] / t));
const TARGET = 0.8;
const result = {
  releases: RELEASES,
  rounds: ROUNDS,
  parallel: PARALLEL,
  node: process.version,
  node_extra_ca_certs: Boolean(env.NODE_EXTRA_CA_CERTS),
  median_ms: Object.fromEntries(['fresh', 'unchanged'].flatMap((c) => ['apply', 'minimal'].map((k) => [`${k} ${c}`, median(times[k][c])]))),
  ratios: ['fresh', 'unchanged'].map((c) => ({ what: `apply / minimal, ${c} (throughput)`, ratio: ratio(c), target: TARGET })),
};
if (asJson) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(
    `apply of ${RELEASES} releases (${ROUNDS} interleaved rounds, --parallel ${PARALLEL}; node ${process.version}; NODE_EXTRA_CA_CERTS ${result.node_extra_ca_certs ? 'set' : 'not set'} for the measured commands)`,
  );
  for (const [k, v] of Object.entries(result.median_ms)) {
    console.log(`  ${k.padEnd(20)} ${v.toFixed(0).padStart(7)} ms (median)  ${((RELEASES / v) * 1000).toFixed(1).padStart(7)} releases/s`);
  }
  for (const r of result.ratios)
    console.log(`  ${r.what.padEnd(40)} ${r.ratio.toFixed(2)}x  (target >= ${r.target}x: ${r.ratio >= r.target ? 'met' : 'NOT met'})`);
  if (RELEASES * 6 > 3000)
    console.log(
      `  note: ${RELEASES} releases take about ${RELEASES * 6} requests per run, above the service's burst of 3000 a minute: both clients meet its rate limit (429, Retry-After).`,
    );
}
finish(0);
