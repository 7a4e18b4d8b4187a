#!/usr/bin/env node
// `reldist release export --all --dir DIR` against `reldist release list --all --json` (stdout to
// /dev/null) over the same catalog, and the floor (bench/export-floor.mjs: creating the same
// number of files of the same sizes, 16 at a time, nothing else), interleaved round after round:
// export/list (target <= 2: writing a release file per release costs at most as much again as
// listing them), export/floor (how far the export is from what the disk allows) and floor/list
// (the best export/list can be on this disk: above 2, the target is blocked by file creation).
// Also the service's time per page of 100 releases with `include=tracks` and without, and, where
// GNU time is installed, each run's CPU time (user + sys), steadier than wall time under load.
// The catalog: the README's example release (two tracks with audio, delivery, video) made through
// the API, then copied --releases times (default 10,000) with their tracks straight into the
// database of a standing `reldist serve --sandbox --rate-limit off` over a temporary folder, each
// copy with its own catalog number. Each export goes to a fresh folder (nothing to replace).
//   node bench/export.mjs [--releases 10000] [--rounds 5] [--no-extra-ca] [--json]
// Needs a build (`npm run build`). Never passes or fails on times.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, openServiceDb, startServe } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
const RELEASES = numberFlag(argv, '--releases', 10_000);
const ROUNDS = numberFlag(argv, '--rounds', 5);

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/export.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}
const { work, atExit, finish, fail } = benchRun('export.mjs');

const env = { ...process.env, NO_COLOR: '1' };
for (const k of Object.keys(env)) if (/^RELDIST_/.test(k) || /_proxy$/i.test(k)) delete env[k];
if (argv.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;
const caCerts = Boolean(env.NODE_EXTRA_CA_CERTS);

const dataDir = join(work, 'data');
const service = await startServe(bin, dataDir, { args: ['--rate-limit', 'off'] });
atExit(() => service.stop());
const withService = { ...env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };

/** The example release through the API, then copies of its row and its tracks' rows. */
function seed(count) {
  const made = spawnSync(process.execPath, [bin, 'release', 'create', '--file', join(root, 'examples', 'first-release', 'release.yaml'), '--json'], {
    env: withService,
    encoding: 'utf8',
  });
  if (made.status !== 0) fail(`release create failed: ${made.stderr}`);
  const { db, insertInto } = openServiceDb(root, dataDir);
  const release = db.prepare('SELECT * FROM releases ORDER BY id LIMIT 1').get();
  const tracks = db.prepare('SELECT * FROM tracks WHERE release_id = ? ORDER BY disc, position').all(release.id);
  const insertRelease = insertInto('releases');
  const insertTrack = insertInto('tracks');
  db.transaction(() => {
    for (let i = 1; i < count; i++) {
      const catalogNumber = `BEN-${String(i).padStart(6, '0')}`;
      const data = { ...JSON.parse(release.data), catalog_number: catalogNumber };
      const { lastInsertRowid } = insertRelease.run({ ...release, data: JSON.stringify(data), catalog_key: catalogNumber.toLowerCase() });
      for (const t of tracks) insertTrack.run({ ...t, release_id: lastInsertRowid, isrc: null });
    }
  })();
  const n = db.prepare('SELECT COUNT(*) FROM releases').pluck().get();
  db.close();
  return n;
}

const seeded = seed(RELEASES);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** GNU time, when there: each run's CPU seconds too (user + sys), which a loaded machine disturbs less than its wall time. */
const GNU_TIME = '/usr/bin/time';
const withCpu = existsSync(GNU_TIME);
const CPU_MARK = 'export-bench-cpu';

/** A run of reldist (args), or of the floor's script (`--floor SIZES DIR`): wall ms, and CPU ms (NaN without GNU time). */
function timed(args) {
  const argv = args[0] === '--floor' ? [join(root, 'bench', 'export-floor.mjs'), ...args.slice(1)] : [bin, ...args];
  const [cmd, cmdArgs] = withCpu ? [GNU_TIME, ['-f', `${CPU_MARK} %U %S`, process.execPath, ...argv]] : [process.execPath, argv];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, cmdArgs, { env: withService, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) fail(`${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  const cpu = r.stderr.match(new RegExp(`${CPU_MARK} ([\\d.]+) ([\\d.]+)`));
  return { ms, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN };
}

/** The service's time for each page of the catalog (100 releases), with tracks and without, read in turn. */
async function pageTimes() {
  const url = (page, tracks) => `${service.url}/releases?perPage=100&page=${page}${tracks ? '&include=tracks' : ''}`;
  const headers = { authorization: `Bearer ${service.token}` };
  const get = async (u) => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(u, { headers });
    if (res.status !== 200) fail(`GET ${u}: ${res.status}`);
    await res.arrayBuffer();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const pages = Math.ceil(seeded / 100);
  const plain = [];
  const tracks = [];
  for (let p = 1; p <= pages; p++) {
    plain.push(await get(url(p, false)));
    tracks.push(await get(url(p, true)));
  }
  return { plain: median(plain), tracks: median(tracks) };
}
await pageTimes(); // the warm-up of the statements
const page = await pageTimes();

const list = [];
const exp = [];
const floor = [];
const ratios = { exportList: [], exportFloor: [], floorList: [] };
const cpu = { list: [], export: [], floor: [] };
const sizesFile = join(work, 'sizes.txt');
// One warm-up round of each (the service's statements and the file system's caches), then the
// rounds. The warm-up's export gives the floor its file sizes.
for (let round = -1; round < ROUNDS; round++) {
  const dir = join(work, `out-${round}`);
  const l = timed(['release', 'list', '--all', '--json']);
  const e = timed(['release', 'export', '--all', '--dir', dir]);
  const names = readdirSync(dir);
  if (names.length !== seeded) fail(`export wrote ${names.length} files for ${seeded} releases`);
  if (round < 0) writeFileSync(sizesFile, names.map((n) => `${statSync(join(dir, n)).size}\n`).join(''));
  rmSync(dir, { recursive: true, force: true });
  const floorDir = join(work, `floor-${round}`);
  const f = timed(['--floor', sizesFile, floorDir]);
  if (readdirSync(floorDir).length !== seeded) fail(`the floor made ${readdirSync(floorDir).length} files for ${seeded}`);
  rmSync(floorDir, { recursive: true, force: true });
  if (round < 0) continue;
  list.push(l.ms);
  exp.push(e.ms);
  floor.push(f.ms);
  cpu.list.push(l.cpu);
  cpu.export.push(e.cpu);
  cpu.floor.push(f.cpu);
  ratios.exportList.push(e.ms / l.ms);
  ratios.exportFloor.push(e.ms / f.ms);
  ratios.floorList.push(f.ms / l.ms);
}

const ratio = (xs) => Number(median(xs).toFixed(2));
const result = {
  releases: seeded,
  rounds: ROUNDS,
  list_all_json_ms: Math.round(median(list)),
  export_all_ms: Math.round(median(exp)),
  floor_ms: Math.round(median(floor)),
  ratio_median: ratio(ratios.exportList),
  export_over_floor: ratio(ratios.exportFloor),
  floor_over_list: ratio(ratios.floorList),
  cpu_ms: withCpu ? { list: Math.round(median(cpu.list)), export: Math.round(median(cpu.export)), floor: Math.round(median(cpu.floor)) } : null,
  page_ms: Number(page.plain.toFixed(1)),
  page_with_tracks_ms: Number(page.tracks.toFixed(1)),
  target: 2,
  load_average: loadavg().map((x) => Number(x.toFixed(2))),
  node_extra_ca_certs: caCerts,
};
if (argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`release export --all vs release list --all --json, ${seeded} releases (2 tracks each), ${ROUNDS} interleaved rounds`);
  console.log(`  list --all --json   median ${result.list_all_json_ms} ms`);
  console.log(`  export --all        median ${result.export_all_ms} ms`);
  console.log(`  floor (files alone) median ${result.floor_ms} ms`);
  console.log(`  export/list         median ${result.ratio_median}x (target <= 2)`);
  console.log(`  export/floor        median ${result.export_over_floor}x`);
  console.log(
    `  floor/list          median ${result.floor_over_list}x (the best export/list can be here${result.floor_over_list > 2 ? ': above 2, blocked by file creation' : ''})`,
  );
  if (result.cpu_ms)
    console.log(`  CPU (user+sys)      list ${result.cpu_ms.list} ms, export ${result.cpu_ms.export} ms, floor ${result.cpu_ms.floor} ms (median)`);
  console.log(`  service, a page of 100: ${result.page_ms} ms, with include=tracks ${result.page_with_tracks_ms} ms (median)`);
  console.log(`  load average        ${result.load_average.join(' ')} (at the end)`);
  console.log(`  NODE_EXTRA_CA_CERTS ${caCerts ? 'set' : 'unset'}${caCerts ? ' (both pay for it; --no-extra-ca to leave it out)' : ''}`);
}
finish(0);
