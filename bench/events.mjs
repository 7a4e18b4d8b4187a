#!/usr/bin/env node
// What writing events costs the service's writes: the same stream of writes against the service
// with its event log and without it, interleaved rounds, the median per-round ratio of writes/s
// (with / without). The budget: at most 5% (a ratio of 0.95 or more).
//
// Both services are the real one, bundled from src/server by esbuild into the bench's folder: the
// first as it is, the second with src/server/events/record.ts (every event a write records, and
// the reading-before an edit compares with) replaced by no-ops, so it does all the rest of the
// same work. Each runs in a child process of its own over its own data directory; the load comes
// from this process: `--connections` clients (default 4), each a loop of one release's life as a
// draft: create, edit metadata, delivery and video, replace the track list, rename a track,
// delete (7 writes, 7 events, each a different kind of event).
//
// `--floor` adds a third build in the same rounds: every record* function inserts one fixed event
// row (a prepared statement, its text made once) and does nothing else: what the log's row and
// its index cost in SQLite alone, which no change to our code can go below.
//
//   node bench/events.mjs [--rounds 7] [--seconds 2] [--connections 4] [--floor]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchRun, numberFlag, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const ROUNDS = numberFlag(argv, '--rounds', 7);
const SECONDS = numberFlag(argv, '--seconds', 2);
const CONNECTIONS = numberFlag(argv, '--connections', 4);
const BUDGET = 0.95;
const FLOOR = argv.includes('--floor');
const { work, atExit, finish, fail } = benchRun('events.mjs');

/** Every export of events/record.ts as a function that does nothing. */
function noEventsPlugin() {
  const source = readFileSync(join(root, 'src/server/events/record.ts'), 'utf8');
  const names = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  if (names.length < 5) fail(`src/server/events/record.ts exports ${names.length} functions; expected the record* functions`);
  return {
    name: 'no-events',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]server[\\/]events[\\/]record\.ts$/ }, () => ({
        contents: names.map((n) => `export function ${n}() { return undefined; }`).join('\n'),
        loader: 'js',
      }));
    },
  };
}

/** Every record* function inserts one fixed event row and does nothing else; beforeEdit does nothing. */
function insertOnlyPlugin() {
  const source = readFileSync(join(root, 'src/server/events/record.ts'), 'utf8');
  const names = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  const row = [
    1,
    'release.updated',
    1,
    null,
    JSON.stringify({ kind: 'user', user_id: 1, name: 'Label', request_id: 'req_0123456789abcdef0123' }),
    JSON.stringify({ changes: [{ field: 'title', old: 'Bench 12', new: 'Bench 12 (edit)' }] }),
    '2026-11-27T05:00:00.000Z',
  ];
  const insert = `let statement;
function insert(db) {
  statement ??= db.prepare('INSERT INTO events (user_id, type, release_id, catalog_number, actor, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  statement.run(...${JSON.stringify(row)});
}
`;
  return {
    name: 'insert-only',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]server[\\/]events[\\/]record\.ts$/ }, () => ({
        contents:
          insert +
          names.map((n) => (n === 'beforeEdit' ? `export function ${n}() { return undefined; }` : `export function ${n}(db) { insert(db); }`)).join('\n'),
        loader: 'js',
      }));
    },
  };
}

// The bundles go under the repository's tmp/ (ignored by git), where their packages resolve from its node_modules.
mkdirSync(join(root, 'tmp'), { recursive: true });
const bundles = mkdtempSync(join(root, 'tmp', 'bench-events-'));
atExit(() => rmSync(bundles, { recursive: true, force: true }));

/** src/server as one ES module (our code only: packages stay imports), with `plugins`. */
async function bundle(name, plugins) {
  const outfile = join(bundles, `${name}.mjs`);
  await build({
    entryPoints: [join(root, 'src/server/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'warning',
    plugins,
  });
  return outfile;
}

/** Starts one bundled service in a child process; resolves with its URL and the label token. */
async function startService(bundlePath, dataDir) {
  const script = `
    const { startServer } = await import(${JSON.stringify(bundlePath)});
    const s = await startServer({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir)}, sandbox: true, rateLimit: false });
    console.log(JSON.stringify({ url: s.url, token: s.tokens.label }));
    process.on('SIGTERM', () => s.close().then(() => process.exit(0)));`;
  // Run from the repository, so the bundle's external packages resolve from its node_modules.
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  atExit(() => child.kill('SIGKILL'));
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { ...JSON.parse(line), pid: child.pid };
}

/** CPU time the process used so far, ms (user + system, from /proc; undefined elsewhere than Linux). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime: fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS * 2 });

function call(svc, method, path, body) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${svc.url}${path}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${svc.token}`, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => {
          if (res.statusCode >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${data.slice(0, 200)}`));
          else resolve(data ? JSON.parse(data) : undefined);
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const release = { type: 'single', title: 'Bench', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'Northern Lights Records' };

/** One release's life as a draft: 7 writes. */
async function life(svc, n) {
  const r = await call(svc, 'POST', '/releases', { ...release, title: `Bench ${n}` });
  await call(svc, 'PATCH', `/releases/${r.id}/metadata`, { title: `Bench ${n} (edit)`, genre: 'Pop' });
  await call(svc, 'PATCH', `/releases/${r.id}/delivery`, { price_tier: 'front' });
  await call(svc, 'PATCH', `/releases/${r.id}/video`, { enabled: true });
  const withTracks = await call(svc, 'PUT', `/releases/${r.id}/tracks`, [{ title: 'One' }, { title: 'Two' }]);
  await call(svc, 'PUT', `/releases/${r.id}/tracks`, [
    { id: withTracks.tracks[0].id, title: 'One (edit)' },
    { id: withTracks.tracks[1].id, title: 'Two' },
  ]);
  await call(svc, 'DELETE', `/releases/${r.id}`);
  return 7;
}

/** Writes per second over `seconds`, `CONNECTIONS` loops at once, and the service's CPU time per write (ms). */
async function measure(svc, seconds) {
  const end = performance.now() + seconds * 1000;
  let writes = 0;
  let n = 0;
  const t0 = performance.now();
  const cpu0 = cpuMs(svc.pid);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) writes += await life(svc, n++);
    }),
  );
  const cpu1 = cpuMs(svc.pid);
  return { rate: writes / ((performance.now() - t0) / 1000), cpuPerWrite: cpu0 === undefined || cpu1 === undefined ? undefined : (cpu1 - cpu0) / writes };
}

try {
  const [withPath, withoutPath] = [await bundle('with-events', []), await bundle('without-events', [noEventsPlugin()])];
  const withSvc = await startService(withPath, join(work, 'with'));
  const withoutSvc = await startService(withoutPath, join(work, 'without'));
  const floorSvc = FLOOR ? await startService(await bundle('insert-only', [insertOnlyPlugin()]), join(work, 'insert-only')) : undefined;
  // The no-op build records nothing: checked, so the comparison is what it says.
  await life(withoutSvc, -1);
  const none = JSON.parse(
    await new Promise((resolve) =>
      http.get(`${withoutSvc.url}/events`, { headers: { authorization: `Bearer ${withoutSvc.token}` } }, (res) => {
        let d = '';
        res.on('data', (c) => (d += c));
        res.on('end', () => resolve(d));
      }),
    ),
  );
  if (none.data.length !== 0) fail('the build without events recorded some');
  // Warm-up: both JITs and page caches.
  await measure(withSvc, 1);
  await measure(withoutSvc, 1);
  if (floorSvc) await measure(floorSvc, 1);
  const ratios = [];
  const floorRatios = [];
  const floorCpuRatios = [];
  const cpuRatios = [];
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always meets the other's leftovers (checkpoints, GC).
    const order = round % 2 === 0 ? [withSvc, withoutSvc, floorSvc] : [floorSvc, withoutSvc, withSvc];
    const got = new Map();
    for (const svc of order) if (svc) got.set(svc, await measure(svc, SECONDS));
    const [w, wo] = [got.get(withSvc), got.get(withoutSvc)];
    ratios.push(w.rate / wo.rate);
    // Throughput the service's CPU allows: writes per CPU-second, with over without.
    if (w.cpuPerWrite && wo.cpuPerWrite) cpuRatios.push(wo.cpuPerWrite / w.cpuPerWrite);
    rows.push([w, wo]);
    const f = floorSvc && got.get(floorSvc);
    if (f) {
      floorRatios.push(f.rate / wo.rate);
      if (f.cpuPerWrite && wo.cpuPerWrite) floorCpuRatios.push(wo.cpuPerWrite / f.cpuPerWrite);
    }
  }
  const ratio = median(ratios);
  const range = (xs) => `min ${Math.min(...xs).toFixed(3)}, max ${Math.max(...xs).toFixed(3)}`;
  console.log(`writes with events / without, ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections, node ${process.version}`);
  console.log(
    `  with events     ${median(rows.map((r) => r[0].rate))
      .toFixed(0)
      .padStart(6)} writes/s, ${median(rows.map((r) => r[0].cpuPerWrite ?? NaN)).toFixed(3)} CPU ms per write (medians)`,
  );
  console.log(
    `  without events  ${median(rows.map((r) => r[1].rate))
      .toFixed(0)
      .padStart(6)} writes/s, ${median(rows.map((r) => r[1].cpuPerWrite ?? NaN)).toFixed(3)} CPU ms per write (medians)`,
  );
  console.log(`  writes/s ratio  x${ratio.toFixed(3)} per round, median (${range(ratios)}); budget x${BUDGET}`);
  if (cpuRatios.length)
    console.log(`  CPU ratio       x${median(cpuRatios).toFixed(3)} writes per CPU-second of the service, per round, median (${range(cpuRatios)})`);
  if (floorRatios.length) {
    console.log(`  floor: one fixed event row inserted per write and nothing else, over without events (per round, medians)`);
    console.log(`    writes/s ratio  x${median(floorRatios).toFixed(3)} (${range(floorRatios)})`);
    if (floorCpuRatios.length) console.log(`    CPU ratio       x${median(floorCpuRatios).toFixed(3)} (${range(floorCpuRatios)})`);
  }
  finish(ratio >= BUDGET ? 0 : 1);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
