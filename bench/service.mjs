#!/usr/bin/env node
// The service's hot path and its scale, as ratios measured in the same run (see docs/performance.md).
//
// Hot path: requests/s of `reldist serve` against a floor: a minimal node:http + better-sqlite3
// server reading the same database file and answering the same JSON bytes (checked before
// measuring), and sending the same precomputed bytes for a lookup. Interleaved rounds, the
// median ratio reldist/floor and its spread (min-max over rounds).
//
// Scale: the same queries against a 1,000-release and a 100,000-release catalog, one connection,
// interleaved; the ratio is time per request at 100k over time at 1k.
//
//   node bench/service.mjs [--quick] [--rounds 5] [--seconds 1] [--no-scale] [--no-hot] [--bin path/to/reldist.js]
//                          [--only <endpoint substring>] [--cpu-prof <dir>]
// --quick: the hot path only, 3 rounds of 1 s. --bin measures another build (e.g. an older
// commit's, for a before/after).
// Load comes from wrk when it is installed, else from a small node:http client (one request in
// flight per connection). Needs `npm run build` first (it runs bin/reldist.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { numberFlag, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `usage: node bench/service.mjs [--quick] [--rounds N] [--seconds S] [--no-scale] [--no-hot] [--bin path/to/reldist.js]
                               [--only <endpoint substring>] [--cpu-prof <dir>]
  --quick        the hot path only, 3 rounds of 1 s (same as --no-scale --rounds 3 --seconds 1)
  --rounds N     interleaved rounds after a warm-up (default 5)
  --seconds S    each server's load per round (default 1)
  --no-scale     skip the 1k/100k scale half (seeding 100k takes about a minute)
  --no-hot       skip the hot-path half
  --bin FILE     measure another build's bin/reldist.js (a before/after)
  --only TEXT    the endpoints whose name contains TEXT
  --cpu-prof DIR run the service under node --cpu-prof, its profile written to DIR when it stops
Needs \`npm run build\` first; load from wrk when installed.`;
const argv0 = process.argv.slice(2);
const quick = argv0.includes('--quick');
const argv = quick ? ['--no-scale', '--rounds', '3', '--seconds', '1', ...argv0] : argv0;
const num = (name, dflt) => numberFlag(argv, name, dflt);

// ---------------------------------------------------------------- the floor (a child process)

/** The floor: the same rows, the same JSON, nothing else (no framework, no validation, one token). */
function runFloor(dataDir, token, lookupFile) {
  const db = new Database(join(dataDir, 'reldist.sqlite'), { readonly: true });
  const userId = db.prepare("SELECT id FROM users WHERE email = 'label@sandbox.reldist.invalid'").get().id;
  const countries = readFileSync(lookupFile);
  const one = db.prepare('SELECT * FROM releases WHERE id = ? AND user_id = ?');
  const tracks = db.prepare(`SELECT t.*, u.filename AS u_filename, u.format AS u_format, u.sample_rate AS u_sample_rate, u.bit_depth AS u_bit_depth,
    u.channels AS u_channels, u.duration_ms AS u_duration_ms, u.size AS u_size, u.sha256 AS u_sha256, u.state AS u_state
    FROM tracks t LEFT JOIN uploads u ON u.key = t.file_key WHERE t.release_id = ? ORDER BY t.disc, t.position, t.id`);
  const count = db.prepare('SELECT COUNT(*) AS n FROM releases WHERE user_id = ?');
  const page = db.prepare(`SELECT r.*, (SELECT COUNT(*) FROM tracks t WHERE t.release_id = r.id) AS track_count
    FROM releases r WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`);
  const auth = `Bearer ${token}`;
  const json = { 'content-type': 'application/json; charset=utf-8' };
  http
    .createServer((req, res) => {
      if (req.headers.authorization !== auth) {
        res.writeHead(401, json).end('{}');
        return;
      }
      const url = req.url;
      if (url === '/lookup/countries') {
        res.writeHead(200, json).end(countries);
        return;
      }
      const m = /^\/releases\/(\d+)$/.exec(url);
      if (m) {
        const row = one.get(Number(m[1]), userId);
        if (!row) return void res.writeHead(404, json).end('{}');
        const t = tracks.all(row.id).map(trackResource);
        res.writeHead(200, json).end(JSON.stringify(releaseResource(row, t.length, t)));
        return;
      }
      if (url.startsWith('/releases?')) {
        const q = new URL(url, 'http://x').searchParams;
        const perPage = Number(q.get('perPage') ?? 20);
        const p = Number(q.get('page') ?? 1);
        const total = count.get(userId).n;
        const data = page.all(userId, perPage, (p - 1) * perPage).map((row) => releaseResource(row, row.track_count));
        res.writeHead(200, json).end(JSON.stringify({ data, meta: { page: p, per_page: perPage, total, total_pages: Math.ceil(total / perPage) } }));
        return;
      }
      res.writeHead(404, json).end('{}');
    })
    .listen(0, '127.0.0.1', function () {
      process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${this.address().port}` })}\n`);
    });
}

function releaseResource(row, trackCount, tracks) {
  const d = JSON.parse(row.data);
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    title: row.title,
    version: d.version,
    artists: d.artists,
    label: d.label,
    catalog_number: d.catalog_number,
    upc: row.upc,
    genre: d.genre,
    subgenre: d.subgenre,
    language: d.language,
    p_line: d.p_line,
    c_line: d.c_line,
    original_release_date: d.original_release_date,
    explicit: d.explicit,
    artwork: d.artwork,
    delivery: d.delivery,
    video: d.video,
    track_count: trackCount,
    ...(tracks ? { tracks } : {}),
    review: d.review,
    submission_notes: d.submission_notes ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    submitted_at: row.submitted_at,
  };
}

function trackResource(r) {
  const d = JSON.parse(r.data);
  const file =
    r.file_key !== null && r.u_state !== null && r.u_format !== null
      ? {
          key: r.file_key,
          filename: r.u_filename ?? '',
          format: r.u_format,
          sample_rate: r.u_sample_rate ?? 0,
          bit_depth: r.u_bit_depth ?? 0,
          channels: r.u_channels ?? 0,
          duration_ms: r.u_duration_ms ?? 0,
          size: r.u_size ?? 0,
          sha256: r.u_sha256 ?? '',
          state: r.u_state,
        }
      : null;
  return {
    id: r.id,
    release_id: r.release_id,
    position: r.position,
    disc: r.disc,
    title: d.title,
    version: d.version,
    artists: d.artists,
    contributors: d.contributors,
    isrc: r.isrc,
    explicit: d.explicit,
    audio_language: d.audio_language,
    preview_start_seconds: d.preview_start_seconds,
    file,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

// ---------------------------------------------------------------- processes and seeding

const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Spawns a server that prints one JSON line ({base_url, tokens?}) on stdout; resolves with it. */
function startProcess(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    children.add(child);
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ ...JSON.parse(buf.slice(0, nl)), child });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const bin = argv.includes('--bin') ? argv[argv.indexOf('--bin') + 1] : join(root, 'bin/reldist.js');
// --cpu-prof DIR: the service runs under `node --cpu-prof`, its profile written to DIR when it stops.
const cpuProf = argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', argv[argv.indexOf('--cpu-prof') + 1]] : [];
const startServe = (dataDir) => startProcess([...cpuProf, bin, 'serve', '--sandbox', '--port', '0', '--data-dir', dataDir, '--rate-limit', '999999999']);

async function stop(p) {
  children.delete(p.child);
  p.child.kill('SIGTERM');
  await new Promise((r) => (p.child.exitCode !== null ? r() : p.child.once('exit', r)));
}

const STATUSES = ['draft', 'in_review', 'approved', 'rejected', 'delivered', 'live', 'taken_down'];
const TYPES = ['single', 'ep', 'album', 'compilation'];
/** A made-up word unique to release n (letters only, so a search for it finds that release alone). */
function word(n) {
  let x = (n * 2654435761) >>> 0;
  let s = '';
  for (let i = 0; i < 7; i++) {
    s += String.fromCharCode(97 + (x % 26));
    x = Math.floor(x / 26) + (n + i) * 7919;
  }
  return s;
}
const upcOf = (n) => {
  const data = `8${String(n).padStart(10, '0')}`;
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(data[i]) * (i % 2 === 0 ? 3 : 1);
  return `${data}${(10 - (sum % 10)) % 10}`;
};
const catalogNumberOf = (n) => `BEN-${String(n).padStart(6, '0')}`;
/** A made-up name, a different one per release (a search for it finds that release alone). */
const artistOf = (n) => {
  const cap = (w) => w[0].toUpperCase() + w.slice(1);
  return `${cap(word(n + 1_000_000).slice(0, 5))} ${cap(word(n + 2_000_000))}`;
};

/**
 * `count` releases (each with `tracksEach` tracks) for the label account, straight into the
 * database in one transaction (the service's triggers keep its derived tables in step).
 */
function seed(dataDir, count, tracksEach) {
  const db = new Database(join(dataDir, 'reldist.sqlite'));
  db.pragma('journal_mode = WAL');
  const userId = db.prepare("SELECT id FROM users WHERE email = 'label@sandbox.reldist.invalid'").get().id;
  const now = '2026-11-01T10:00:00.000Z';
  const insert =
    db.prepare(`INSERT INTO releases (user_id, status, type, title, upc, upc_gtin14, catalog_key, search_text, data, created_at, updated_at, submitted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const track = db.prepare(
    'INSERT INTO tracks (release_id, disc, position, isrc, file_key, data, created_at, updated_at) VALUES (?, 1, ?, NULL, NULL, ?, ?, ?)',
  );
  const started = Date.now();
  db.transaction(() => {
    for (let n = 1; n <= count; n++) {
      const title = `Release ${word(n)}`;
      const artists = [{ name: artistOf(n), role: 'primary' }];
      const upc = upcOf(n);
      const cat = catalogNumberOf(n);
      const data = {
        version: null,
        artists,
        label: 'Bench Records',
        catalog_number: cat,
        genre: 'Electronic',
        subgenre: null,
        language: 'en',
        p_line: { year: 2026, text: 'Bench Records' },
        c_line: { year: 2026, text: 'Bench Records' },
        original_release_date: null,
        explicit: 'not_explicit',
        artwork: null,
        delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2027-01-15', preorder_date: null, price_tier: null },
        video: { enabled: false, art_tracks: false, content_id: { enabled: false, policy: 'monetize' } },
        review: null,
      };
      const status = STATUSES[n % STATUSES.length];
      const search = [title, artists[0].name, upc, cat].join('\n').toLowerCase();
      const id = Number(
        insert.run(
          userId,
          status,
          TYPES[n % TYPES.length],
          title,
          upc,
          `00${upc}`,
          cat.normalize('NFC').trim().toLowerCase(),
          search,
          JSON.stringify(data),
          now,
          now,
          status === 'draft' ? null : now,
        ).lastInsertRowid,
      );
      for (let p = 1; p <= tracksEach; p++) {
        track.run(
          id,
          p,
          JSON.stringify({
            title: `Track ${p}`,
            version: null,
            artists,
            contributors: [{ name: artists[0].name, role: 'composer' }],
            explicit: 'not_explicit',
            audio_language: 'en',
            preview_start_seconds: null,
          }),
          now,
          now,
        );
      }
    }
  })();
  db.close();
  return Date.now() - started;
}

// ---------------------------------------------------------------- load

const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

/** CPU time (user + system) a process has used so far, in ms (Linux; undefined elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

/**
 * Drives `server` for `seconds` with `connections` connections, each one request at a time:
 * requests/s, and the server's CPU time per request (µs), which a loaded machine disturbs less.
 */
async function load(server, path, token, connections, seconds) {
  const cpu0 = cpuMs(server.child.pid);
  const { rps, requests } = await drive(server.base_url + path, token, connections, seconds);
  const cpu1 = cpuMs(server.child.pid);
  return { rps, cpuUs: cpu0 === undefined || cpu1 === undefined ? NaN : ((cpu1 - cpu0) * 1000) / requests };
}

async function drive(url, token, connections, seconds) {
  if (hasWrk) {
    const r = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-H', `Authorization: Bearer ${token}`, url], { encoding: 'utf8' });
    const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
    const n = /(\d+) requests in/.exec(r.stdout);
    if (!m || !n || /Non-2xx/.test(r.stdout)) throw new Error(`wrk failed on ${url}:\n${r.stdout}${r.stderr}`);
    return { rps: Number(m[1]), requests: Number(n[1]) };
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          res.on('data', () => {}).on('end', resolve);
        })
        .on('error', reject);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return { rps: done / ((performance.now() - started) / 1000), requests: done };
}

async function fetchBytes(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

const fmt = (x) => x.toFixed(2);

// ---------------------------------------------------------------- main

async function main() {
  if (!argv.includes('--bin') && !existsSync(join(root, 'dist/main.js'))) throw new Error('build first: npm run build');
  const ROUNDS = num('--rounds', 5);
  const SECONDS = num('--seconds', 1);
  console.log(
    `service bench: node ${process.version}, NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}, load from ${hasWrk ? 'wrk' : 'node:http'}, ${bin}, ${ROUNDS} interleaved rounds of ${SECONDS} s`,
  );
  const tmp = mkdtempSync(join(tmpdir(), 'reldist-bench-service-'));
  try {
    if (!argv.includes('--no-hot')) await hotPath(tmp, ROUNDS, SECONDS);
    if (!argv.includes('--no-scale')) await scale(tmp, ROUNDS, SECONDS);
  } finally {
    for (const c of children) c.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function hotPath(tmp, rounds, seconds) {
  const dataDir = join(tmp, 'hot');
  let serve = await startServe(dataDir);
  const token = serve.tokens.label;
  const ms = seed(dataDir, 10_000, 2);
  // Restarted so the service's first look at the catalog is after seeding, as it would be.
  await stop(serve);
  serve = await startServe(dataDir);
  console.log(`\nhot path: 10,000 releases (2 tracks each) seeded in ${ms} ms`);
  const lookupFile = join(tmp, 'countries.json');
  writeFileSync(lookupFile, await fetchBytes(`${serve.base_url}/lookup/countries`, token));
  const floor = await startProcess([fileURLToPath(import.meta.url), '--floor', dataDir, token, lookupFile]);
  const cases = [
    { name: 'GET /lookup/countries', path: '/lookup/countries' },
    { name: 'GET /releases/{id}', path: '/releases/5000' },
    { name: 'GET /releases?perPage=100', path: '/releases?perPage=100' },
  ].filter((c) => !only || c.name.includes(only));
  for (const c of cases) {
    const [a, b] = await Promise.all([fetchBytes(serve.base_url + c.path, token), fetchBytes(floor.base_url + c.path, token)]);
    if (!a.equals(b)) throw new Error(`the floor answers ${c.path} with other bytes than reldist: fix the floor`);
  }
  const results = [];
  for (const c of cases)
    for (const connections of [1, 8]) results.push({ ...c, connections, ratios: [], cpuRatios: [], serve: [], floor: [], serveCpu: [], floorCpu: [] });
  for (let round = 0; round < rounds + 1; round++) {
    for (const r of results) {
      // Alternate which goes first, so neither always runs right after the other's load.
      const order = round % 2 ? ['floor', 'serve'] : ['serve', 'floor'];
      const got = {};
      for (const who of order) got[who] = await load(who === 'serve' ? serve : floor, r.path, token, r.connections, seconds);
      if (round === 0) continue; // warm-up
      r.serve.push(got.serve.rps);
      r.floor.push(got.floor.rps);
      r.ratios.push(got.serve.rps / got.floor.rps);
      r.cpuRatios.push(got.floor.cpuUs / got.serve.cpuUs);
      r.serveCpu.push(got.serve.cpuUs);
      r.floorCpu.push(got.floor.cpuUs);
    }
  }
  console.log("  ratio: reldist requests/s over the floor's; cpu: the floor's CPU time per request over reldist's");
  console.log('  endpoint                    conns  reldist req/s  floor req/s  ratio (median, min-max)  cpu µs/req  cpu (median, min-max)  target');
  for (const r of results) {
    const target = 0.6;
    const m = median(r.ratios);
    const spread = (xs) => `x${fmt(median(xs))} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;
    console.log(
      `  ${r.name.padEnd(27)} ${String(r.connections).padStart(5)}  ${median(r.serve).toFixed(0).padStart(13)}  ${median(r.floor).toFixed(0).padStart(11)}  ${spread(r.ratios).padEnd(23)}  ${`${median(r.serveCpu).toFixed(0)}/${median(r.floorCpu).toFixed(0)}`.padStart(10)}  ${spread(r.cpuRatios).padEnd(21)}  >= ${target} ${m >= target ? 'ok' : 'MISSED'}`,
    );
  }
  await stop(floor);
  await stop(serve);
}

async function scale(tmp, rounds, seconds) {
  const sizes = [1_000, 100_000];
  const servers = [];
  for (const n of sizes) {
    const dataDir = join(tmp, `scale-${n}`);
    const s = await startServe(dataDir);
    const ms = seed(dataDir, n, 1);
    await stop(s);
    servers.push({ n, ms, ...(await startServe(dataDir)) });
  }
  console.log(`\nscale: ${sizes.map((n, i) => `${n.toLocaleString('en')} releases seeded in ${servers[i].ms} ms`).join(', ')}`);
  // Release 500 exists in both catalogs: every query looks for the same thing.
  const k = 500;
  const cases = [
    ['status', '/releases?status=live'],
    ['type', '/releases?type=album'],
    ['search: title', `/releases?search=${word(k)}`],
    ['search: artist', `/releases?search=${encodeURIComponent(artistOf(k))}`],
    ['search: UPC', `/releases?search=${upcOf(k)}`],
    ['search: catalog number', `/releases?search=${catalogNumberOf(k)}`],
    ['catalog_number', `/releases?catalog_number=${catalogNumberOf(k)}`],
    ['GET /releases/{id}', `/releases/${k}`],
  ].map(([name, path]) => ({ name, path, ratios: [], cpuRatios: [], small: [], large: [] }));
  for (const c of cases) {
    // Sanity: each search finds the release in both catalogs.
    for (const s of servers) {
      const body = JSON.parse(await fetchBytes(s.base_url + c.path, s.tokens.label));
      if (c.name.startsWith('search') && !body.data.some((r) => r.id === k)) throw new Error(`${c.path} does not find release ${k} in the ${s.n} catalog`);
    }
  }
  for (let round = 0; round < rounds + 1; round++) {
    for (const c of cases) {
      const order = round % 2 ? [1, 0] : [0, 1];
      const got = [];
      for (const i of order) got[i] = await load(servers[i], c.path, servers[i].tokens.label, 1, seconds);
      if (round === 0) continue;
      c.small.push(1000 / got[0].rps);
      c.large.push(1000 / got[1].rps);
      c.ratios.push(got[0].rps / got[1].rps);
      c.cpuRatios.push(got[1].cpuUs / got[0].cpuUs);
    }
  }
  console.log("  time: per request at 100k over 1k (1 connection); cpu: the service's CPU time per request, 100k over 1k");
  console.log('  query                    ms at 1k  ms at 100k  time (median, min-max)  cpu (median, min-max)  target');
  for (const c of cases) {
    const m = median(c.ratios);
    const spread = (xs) => `x${fmt(median(xs))} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;
    console.log(
      `  ${c.name.padEnd(23)} ${median(c.small).toFixed(3).padStart(9)}  ${median(c.large).toFixed(3).padStart(10)}  ${spread(c.ratios).padEnd(22)}  ${spread(c.cpuRatios).padEnd(21)}  <= 1.5 ${m <= 1.5 ? 'ok' : 'MISSED'}`,
    );
  }
  for (const s of servers) await stop(s);
}

if (argv[0] === '--floor') runFloor(argv[1], argv[2], argv[3]);
else if (argv.includes('--help') || argv.includes('-h')) console.log(USAGE);
else await main();
