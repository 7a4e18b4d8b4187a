#!/usr/bin/env node
// Batch benchmark, each part against a baseline measured in the same run, interleaved:
//  - `reldist release submit --dry-run <N ids>` against wrk POSTing the single endpoint
//    (POST /releases/{id}/submit: the same ids, the same body, an Idempotency-Key each) with 8
//    connections: ratio of releases per second (target >= 0.9). The CLI sends the same N through
//    the batch endpoint (POST /releases/submit, 500 a request), which is what it is for: wrk on
//    the single endpoint is the fastest any script can go with one request per release;
//  - the same for real submits of complete drafts (copies of the example release, put back to
//    draft without codes before every run), wrk sending each release's submit once (--skip-real
//    leaves it out);
//  - `reldist release list --all --json` over a large catalog against one curl fetching the same
//    pages at the largest page size: ratio of times (target <= 1.1), and the CLI's peak RSS.
// Both run against a standing `reldist serve --sandbox --rate-limit off` over a temporary data
// folder, whose releases are made through the database directly (a copy of one created release),
// not through the API. Dry runs change nothing, so every round does the same work.
//   node bench/batches.mjs [--ids 500] [--releases 100000] [--rounds 3] [--list-rounds N] [--connections 8] [--skip-submit] [--skip-dry] [--skip-real] [--skip-list] [--no-extra-ca] [--base-bin FILE] [--verbose] [--json]
//   node bench/batches.mjs --quick     # submit only (dry run and real), 2 rounds
// The submit part also prints CPU per request: the CLI's (its whole process, start included) and
// the service's (from /proc, during the CLI's run and during wrk's). --base-bin FILE runs another
// build's bin/reldist.js submit in the same rounds (interleaved) and prints its figures too.
// The list part also runs bench/list-floor.mjs (a minimal node client, the floor for any node CLI)
// and prints CPU (client + service) beside wall time; --list-rounds N sets its rounds (default
// --rounds), and --base-bin FILE adds that build's `list --all` to its rounds too.
// Needs a build (`npm run build`), wrk and curl. Never passes or fails on times.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, openServiceDb, startServe, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .slice(1);
  console.log(
    lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith('//')),
      )
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
if (argv.includes('--quick')) argv.push('--skip-list', '--rounds', '2');
const opt = (name, dflt) => numberFlag(argv, name, dflt);
const IDS = opt('--ids', 500);
const RELEASES = opt('--releases', 100_000);
const ROUNDS = opt('--rounds', 3);
// wrk's connections (the CLI sends one batch request per 500 releases, two at once).
const CONNECTIONS = opt('--connections', 8);
const baseBinAt = argv.indexOf('--base-bin');
const baseBin = baseBinAt >= 0 ? argv[baseBinAt + 1] : undefined;

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/batches.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}
for (const tool of ['wrk', 'curl']) {
  if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).error) {
    console.error(`bench/batches.mjs: ${tool} is not installed`);
    process.exit(2);
  }
}

const { work, atExit, finish, fail } = benchRun('batches.mjs');

const env = { ...process.env, NO_COLOR: '1' };
for (const k of Object.keys(env)) if (/^RELDIST_/.test(k) || /_proxy$/i.test(k)) delete env[k];
if (argv.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;
const caCerts = Boolean(env.NODE_EXTRA_CA_CERTS);

async function startService(dataDir) {
  const service = await startServe(bin, dataDir, { args: ['--rate-limit', 'off'] });
  atExit(() => service.stop());
  return { url: service.url, token: service.token, pid: service.child.pid };
}

/** One release through the API, then `count - 1` copies of its row straight into the database. */
function seed(service, dataDir, count) {
  const withService = { ...env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };
  const made = spawnSync(
    process.execPath,
    [bin, 'release', 'create', '--type', 'single', '--title', 'Seed', '--artist', 'Nina Vale', '--label', 'Sandbox Records', '--json'],
    { env: withService, encoding: 'utf8' },
  );
  if (made.status !== 0) fail(`release create failed: ${made.stderr}`);
  const { db, insertInto } = openServiceDb(root, dataDir);
  const src = db.prepare('SELECT * FROM releases ORDER BY id LIMIT 1').get();
  const insert = insertInto('releases');
  db.transaction(() => {
    for (let i = 1; i < count; i++) {
      const title = `Seed ${i}`;
      insert.run({ ...src, title, search_text: src.search_text.replace(/^[^\n]*/, title.toLowerCase()) });
    }
  })();
  const ids = db.prepare('SELECT id FROM releases ORDER BY id').pluck().all().map(String);
  db.close();
  return { ids, withService };
}

/** Peak RSS of a node process, reported by a preload on its stderr. */
const rssPreload = join(work, 'rss.cjs');
writeFileSync(
  rssPreload,
  "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeSync(2, `\\npeak-rss-kb ${u.maxRSS} cpu-ms ${Math.round((u.userCPUTime + u.systemCPUTime) / 1000)}\\n`); });\n",
);
const cpuMs = (stderr) => Number(/cpu-ms (\d+)/.exec(stderr)?.[1]);
const peakRssMb = (stderr) => {
  const m = /peak-rss-kb (\d+)/.exec(stderr);
  return m ? Number(m[1]) / 1024 : NaN;
};

/** CPU ms a process has used so far (user + system), from /proc; NaN where there is none. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s ticks
  } catch {
    return NaN;
  }
}

function timed(file, args, options) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { ...options, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ...r, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

const results = {};

// ---- release submit <N ids> against wrk --------------------------------------------------------
if (!argv.includes('--skip-submit') && !argv.includes('--skip-dry')) {
  const dataDir = join(work, 'submit');
  const service = await startService(dataDir).catch((e) => fail(e.message));
  const { ids, withService } = seed(service, dataDir, IDS);
  const connections = CONNECTIONS;
  // The token goes in a 0600 file, never on a command line.
  const lua = join(work, 'submit.lua');
  // Written again before every run with new Idempotency-Keys: Lua's math.random is not seeded, so
  // keys made in the script repeat from one wrk run to the next, and later runs were replays.
  const writeLua = () =>
    writeFileSync(
      lua,
      `local ids = { ${ids.map((id) => `"${id}"`).join(', ')} }
local n = 0
local prefix = "${randomUUID()}"
request = function()
  n = n + 1
  local id = ids[(n - 1) % #ids + 1]
  return wrk.format("POST", "/releases/" .. id .. "/submit", {
    ["Authorization"] = "Bearer ${service.token}",
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json",
    ["Idempotency-Key"] = prefix .. "-" .. n,
  }, '{"dry_run":true}')
end
`,
      { mode: 0o600 },
    );
  // The floor for any node client: a minimal node:http one (keep-alive agent, as many sockets as
  // connections) sending the same requests, timed as a whole process like the CLI.
  const floorScript = join(work, 'submit-floor.mjs');
  writeFileSync(
    floorScript,
    `import http from 'node:http';
const ids = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: ${connections} });
const base = new URL(process.env.RELDIST_BASE_URL);
const headers = { authorization: 'Bearer ' + process.env.RELDIST_TOKEN, 'content-type': 'application/json', accept: 'application/json' };
const one = (id) => new Promise((resolve, reject) => {
  const r = http.request({ host: base.hostname, port: base.port, path: '/releases/' + id + '/submit', method: 'POST', agent, headers: { ...headers, 'idempotency-key': crypto.randomUUID() } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (text += c));
    res.on('end', () => (JSON.parse(text), resolve()));
  });
  r.on('error', reject);
  r.end('{"dry_run":true}');
});
let next = 0;
await Promise.all(Array.from({ length: ${connections} }, async () => { while (next < ids.length) await one(ids[next++]); }));
agent.destroy();
`,
  );
  const cliRps = [];
  const wrkRps = [];
  const baseRps = [];
  const floorRps = [];
  const marginalRps = [];
  const cpu = { cli: [], cliService: [], wrk: [], wrkService: [], floorService: [], base: [], baseService: [] };
  const startMs = [];
  const runCli = (which) => {
    const s0 = processCpuMs(service.pid);
    const c = timed(process.execPath, [which, 'release', 'submit', '--dry-run', ...ids], { env: { ...withService, NODE_OPTIONS: `--require ${rssPreload}` } });
    const serviceMs = processCpuMs(service.pid) - s0;
    // Exit 3: the seeded drafts are incomplete, so every dry run lists problems (the same work each round).
    if (c.status !== 3) fail(`release submit (${which}) exited with ${c.status}: ${c.stderr.slice(0, 300)}`);
    // Every release's rows, the last one's included (an older build may cut a long report short).
    const answered = new Set(c.stdout.split('\n').map((row) => row.split('\t')[0])).size - 1;
    if (answered !== ids.length) (which === bin ? fail : console.error)(`release submit (${which}) printed rows for ${answered} of ${ids.length} releases`);
    return { ms: c.ms, cpuMs: cpuMs(c.stderr), serviceMs };
  };
  for (let round = 0; round < ROUNDS + 1; round++) {
    writeLua();
    const s0 = processCpuMs(service.pid);
    // wrk's own CPU too (/usr/bin/time), for the CPU ratio, which the machine's load moves less.
    const w = timed('/usr/bin/time', ['-f', 'wrk-cpu %U %S', 'wrk', '-t', '1', '-c', String(connections), '-d', '3s', '-s', lua, service.url], { env });
    const wrkServiceMs = processCpuMs(service.pid) - s0;
    const wrkCpu = /wrk-cpu ([\d.]+) ([\d.]+)/.exec(w.stderr);
    const wrkOwnMs = wrkCpu ? (Number(wrkCpu[1]) + Number(wrkCpu[2])) * 1000 : NaN;
    if (w.status !== 0) fail(`wrk failed: ${w.stderr}`);
    if (/Non-2xx/.test(w.stdout)) fail(`wrk got answers other than 2xx:\n${w.stdout}`);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(w.stdout)?.[1]);
    const wrkRequests = Number(/(\d+) requests in/.exec(w.stdout)?.[1]);
    // Alternate which build goes first, so neither always follows wrk.
    const order = baseBin && round % 2 ? ['base', 'cli'] : ['cli', 'base'];
    const runs = {};
    for (const which of order) if (which === 'cli' || baseBin) runs[which] = runCli(which === 'cli' ? bin : baseBin);
    const c = runs.cli;
    const f0 = processCpuMs(service.pid);
    const floor = timed(process.execPath, [floorScript, ...ids], { env: withService });
    const floorServiceMs = processCpuMs(service.pid) - f0;
    if (floor.status !== 0) fail(`the node:http floor failed: ${floor.stderr.slice(0, 300)}`);
    // The same command with one id: its start, to tell the cost per request from the cost of starting.
    const single = timed(process.execPath, [bin, 'release', 'submit', '--dry-run', ids[0]], { env: withService });
    if (single.status !== 3) fail(`release submit <1 id> exited with ${single.status}: ${single.stderr.slice(0, 300)}`);
    if (argv.includes('--verbose')) {
      console.error(`floor ${floor.ms.toFixed(0)} ms, service cpu ${floorServiceMs} ms; cli with 1 id ${single.ms.toFixed(0)} ms`);
      console.error(
        `cli ${c.ms.toFixed(0)} ms, cpu ${c.cpuMs} ms, service cpu ${c.serviceMs} ms; wrk ${rps} req/s, service cpu ${wrkServiceMs} ms for ${wrkRequests}` +
          (runs.base ? `; base ${runs.base.ms.toFixed(0)} ms, cpu ${runs.base.cpuMs} ms, service cpu ${runs.base.serviceMs} ms` : ''),
      );
    }
    if (round === 0) continue; // warm-up
    wrkRps.push(rps);
    cliRps.push((ids.length / c.ms) * 1000);
    floorRps.push((ids.length / floor.ms) * 1000);
    cpu.floorService.push(floorServiceMs / ids.length);
    startMs.push(single.ms);
    marginalRps.push(((ids.length - 1) / Math.max(1, c.ms - single.ms)) * 1000);
    cpu.cli.push(c.cpuMs / ids.length);
    cpu.cliService.push(c.serviceMs / ids.length);
    cpu.wrkService.push(wrkServiceMs / wrkRequests);
    cpu.wrk.push(wrkOwnMs / wrkRequests);
    if (runs.base) {
      baseRps.push((ids.length / runs.base.ms) * 1000);
      cpu.base.push(runs.base.cpuMs / ids.length);
      cpu.baseService.push(runs.base.serviceMs / ids.length);
    }
  }
  const ratios = cliRps.map((r, i) => r / wrkRps[i]);
  results.submit = {
    ids: ids.length,
    connections,
    cli_rps: median(cliRps),
    wrk_rps: median(wrkRps),
    ratio: median(ratios),
    floor_rps: median(floorRps),
    floor_ratio: median(floorRps.map((r, i) => r / wrkRps[i])),
    cli_over_floor: median(cliRps.map((r, i) => r / floorRps[i])),
    marginal_ratio: median(marginalRps.map((r, i) => r / wrkRps[i])),
    start_ms: median(startMs),
    cpu_ms_per_request: {
      cli: median(cpu.cli),
      service_for_cli: median(cpu.cliService),
      wrk: median(cpu.wrk),
      service_for_wrk: median(cpu.wrkService),
      service_for_floor: median(cpu.floorService),
    },
    // CPU per release of wrk and its service over the CLI's and its service's, round by round.
    cpu_ratio: median(cpu.cli.map((c, i) => (cpu.wrk[i] + cpu.wrkService[i]) / (c + cpu.cliService[i]))),
    ...(baseBin ? { cli_over_base: median(cliRps.map((r, i) => r / baseRps[i])) } : {}),
    ...(baseBin
      ? {
          base: {
            bin: baseBin,
            cli_rps: median(baseRps),
            ratio: median(baseRps.map((r, i) => r / wrkRps[i])),
            cpu_ms_per_request: { cli: median(cpu.base), service_for_cli: median(cpu.baseService) },
          },
        }
      : {}),
  };
}

// ---- release submit <N ids>, real submits of complete drafts, against wrk sending each once ------
if (!argv.includes('--skip-submit') && !argv.includes('--skip-real')) {
  const dataDir = join(work, 'real');
  const service = await startService(dataDir).catch((e) => fail(e.message));
  const withService = { ...env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };
  // One complete release (the example, with its audio), then copies of its rows: ready to submit.
  const made = spawnSync(process.execPath, [bin, 'release', 'create', '--file', 'examples/first-release/release.yaml', '--json'], {
    env: withService,
    cwd: root,
    encoding: 'utf8',
  });
  if (made.status !== 0) fail(`release create --file failed: ${made.stderr}`);
  const firstId = JSON.parse(made.stdout).id;
  const { db, insertInto } = openServiceDb(root, dataDir);
  const release = db.prepare('SELECT * FROM releases WHERE id = ?').get(firstId);
  const tracks = db.prepare('SELECT * FROM tracks WHERE release_id = ?').all(firstId);
  const insertRelease = insertInto('releases');
  const insertTrack = insertInto('tracks');
  const ids = [String(firstId)];
  db.transaction(() => {
    for (let i = 1; i < IDS; i++) {
      const id = insertRelease.run(release).lastInsertRowid;
      for (const t of tracks) insertTrack.run({ ...t, release_id: id });
      ids.push(String(id));
    }
  })();
  // Before every run: every release a draft again, without the codes the last run assigned.
  const reset = db.transaction(() => {
    db.prepare(`UPDATE releases SET status = 'draft', upc = NULL, upc_gtin14 = NULL, submitted_at = NULL WHERE id >= ?`).run(firstId);
    db.prepare('UPDATE tracks SET isrc = NULL WHERE release_id >= ?').run(firstId);
  });
  const lua = join(work, 'real.lua');
  // Each release's submit once, then nothing (wrk keeps running until -d: the time is taken when
  // the last release is in review); new Idempotency-Keys every run.
  const writeLua = () =>
    writeFileSync(
      lua,
      `local ids = { ${ids.map((id) => `"${id}"`).join(', ')} }
local n = 0
local done = 0
local prefix = "${randomUUID()}"
local headers = function(k)
  return { ["Authorization"] = "Bearer ${service.token}", ["Content-Type"] = "application/json", ["Accept"] = "application/json", ["Idempotency-Key"] = prefix .. "-" .. k }
end
local primed = false
request = function()
  -- wrk asks for one request at start-up that it never sends (checked with wrk 4.1): a harmless one.
  if not primed then
    primed = true
    return wrk.format("GET", "/me", headers(0))
  end
  n = n + 1
  if n <= #ids then return wrk.format("POST", "/releases/" .. ids[n] .. "/submit", headers(n), '{}') end
  return wrk.format("GET", "/me", headers(n))
end
response = function(status)
  done = done + 1
  if done >= #ids then wrk.thread:stop() end
end
`,
      { mode: 0o600 },
    );
  const inReview = db.prepare(`SELECT count(*) FROM releases WHERE status = 'in_review'`).pluck();
  /** wrk's time to have every release in review: from its start, watched in the database. */
  const wrkRun = async () => {
    writeLua();
    const t0 = process.hrtime.bigint();
    const child = spawn('wrk', ['-t', '1', '-c', String(CONNECTIONS), '-d', '60s', '-s', lua, service.url], { env, stdio: 'ignore' });
    try {
      for (let tries = 0; inReview.get() !== ids.length; tries++) {
        if (tries === 30_000) fail(`wrk submitted ${inReview.get()} of ${ids.length} releases in 60 s`);
        await new Promise((r) => setTimeout(r, 2));
      }
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: processCpuMs(child.pid) };
    } finally {
      child.kill('SIGKILL');
    }
  };
  const cliRps = [];
  const wrkRps = [];
  const cpu = { cli: [], cliService: [], wrk: [], wrkService: [] };
  for (let round = 0; round < ROUNDS + 1; round++) {
    reset();
    const s0 = processCpuMs(service.pid);
    const { ms: wrkMs, cpuMs: wrkOwnMs } = await wrkRun();
    const wrkServiceMs = processCpuMs(service.pid) - s0;
    const rps = (ids.length / wrkMs) * 1000;
    reset();
    const c0 = processCpuMs(service.pid);
    const c = timed(process.execPath, [bin, 'release', 'submit', ...ids], { env: { ...withService, NODE_OPTIONS: `--require ${rssPreload}` } });
    const cliServiceMs = processCpuMs(service.pid) - c0;
    if (c.status !== 0 || c.stdout.split('\n').filter((l) => l.split('\t')[1] === 'submitted').length !== ids.length) {
      fail(`release submit (real) exited with ${c.status}: ${c.stderr.slice(0, 300)}`);
    }
    if (argv.includes('--verbose')) {
      console.error(
        `real: cli ${c.ms.toFixed(0)} ms, cpu ${cpuMs(c.stderr)} ms, service cpu ${cliServiceMs} ms; wrk ${wrkMs.toFixed(0)} ms, service cpu ${wrkServiceMs} ms`,
      );
    }
    if (round === 0) continue; // warm-up
    wrkRps.push(rps);
    cliRps.push((ids.length / c.ms) * 1000);
    cpu.cli.push(cpuMs(c.stderr) / ids.length);
    cpu.cliService.push(cliServiceMs / ids.length);
    cpu.wrkService.push(wrkServiceMs / ids.length);
    cpu.wrk.push(wrkOwnMs / ids.length);
  }
  db.close();
  results.real = {
    ids: ids.length,
    connections: CONNECTIONS,
    cli_rps: median(cliRps),
    wrk_rps: median(wrkRps),
    ratio: median(cliRps.map((r, i) => r / wrkRps[i])),
    cpu_ms_per_release: { cli: median(cpu.cli), service_for_cli: median(cpu.cliService), wrk: median(cpu.wrk), service_for_wrk: median(cpu.wrkService) },
    cpu_ratio: median(cpu.cli.map((c, i) => (cpu.wrk[i] + cpu.wrkService[i]) / (c + cpu.cliService[i]))),
  };
}

// ---- release list --all --json against curl ------------------------------------------------------
if (!argv.includes('--skip-list')) {
  const dataDir = join(work, 'list');
  const service = await startService(dataDir).catch((e) => fail(e.message));
  const { withService } = seed(service, dataDir, RELEASES);
  const perPage = 100;
  const pages = Math.ceil(RELEASES / perPage);
  const headers = join(work, 'curl-headers');
  writeFileSync(headers, `Authorization: Bearer ${service.token}\nAccept: application/json\n`, { mode: 0o600 });
  const urls = join(work, 'curl-urls');
  writeFileSync(
    urls,
    Array.from({ length: pages }, (_, i) => `url = "${service.url}/releases?page=${i + 1}&perPage=${perPage}"\noutput = "/dev/null"\n`).join(''),
  );
  // Once, checked: the CLI prints every release.
  const check = spawnSync(process.execPath, [bin, 'release', 'list', '--all', '--json'], { env: withService, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (check.status !== 0) fail(`release list --all failed: ${check.stderr}`);
  if (JSON.parse(check.stdout).length !== RELEASES) fail('release list --all did not print every release');
  // Three ways, interleaved, the order turning each round: curl, the CLI, and the floor (a minimal
  // node:http client doing the same pages and the same printing, bench/list-floor.mjs). Wall time
  // and CPU: each process's own (curl through /usr/bin/time, node through a preload) and the
  // service's during it (from /proc). On a machine with no core to spare the CPU is what counts.
  const floorScript = join(root, 'bench', 'list-floor.mjs');
  const withTime = (file, args) => (existsSync('/usr/bin/time') ? ['/usr/bin/time', ['-f', 'cpu-s %U %S', file, ...args]] : [file, args]);
  const ways = {
    curl() {
      const [cmd, args] = withTime('curl', ['-sS', '--fail', '-H', `@${headers}`, '-K', urls]);
      const r = timed(cmd, args, { env });
      if (r.status !== 0) fail(`curl failed: ${r.stderr}`);
      const m = /cpu-s ([\d.]+) ([\d.]+)/.exec(r.stderr);
      return { ms: r.ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
    },
    cli() {
      const r = timed('sh', ['-c', `"${process.execPath}" "${bin}" release list --all --json > /dev/null`], {
        env: { ...withService, NODE_OPTIONS: `--require ${rssPreload}` },
      });
      if (r.status !== 0) fail(`release list --all failed: ${r.stderr}`);
      return { ms: r.ms, cpuMs: cpuMs(r.stderr), rss: peakRssMb(r.stderr) };
    },
    floor() {
      const r = timed('sh', ['-c', `"${process.execPath}" "${floorScript}" > /dev/null`], { env: { ...withService, NODE_OPTIONS: `--require ${rssPreload}` } });
      if (r.status !== 0) fail(`bench/list-floor.mjs failed: ${r.stderr}`);
      return { ms: r.ms, cpuMs: cpuMs(r.stderr), rss: peakRssMb(r.stderr) };
    },
  };
  if (baseBin) {
    ways.cliBase = () => {
      const r = timed('sh', ['-c', `"${process.execPath}" "${baseBin}" release list --all --json > /dev/null`], {
        env: { ...withService, NODE_OPTIONS: `--require ${rssPreload}` },
      });
      if (r.status !== 0) fail(`--base-bin release list --all failed: ${r.stderr}`);
      return { ms: r.ms, cpuMs: cpuMs(r.stderr), rss: peakRssMb(r.stderr) };
    };
  }
  const rows = Object.fromEntries(Object.keys(ways).map((w) => [w, []]));
  const LIST_ROUNDS = opt('--list-rounds', ROUNDS);
  for (let round = 0; round < LIST_ROUNDS; round++) {
    const order = Object.keys(ways);
    for (let k = 0; k < round % order.length; k++) order.push(order.shift());
    for (const w of order) {
      const before = processCpuMs(service.pid);
      const r = ways[w]();
      rows[w].push({ ...r, serviceCpuMs: processCpuMs(service.pid) - before });
    }
    if (argv.includes('--verbose')) {
      const line = (w) =>
        `${w} ${rows[w].at(-1).ms.toFixed(0)} ms (cpu ${rows[w].at(-1).cpuMs.toFixed(0)} ms, service ${rows[w].at(-1).serviceCpuMs.toFixed(0)} ms)`;
      console.error(
        `list round ${round + 1}: ${line('cli')}, peak RSS ${rows.cli.at(-1).rss.toFixed(0)} MB; ${line('curl')}; ${line('floor')}${baseBin ? `; ${line('cliBase')}` : ''}`,
      );
    }
  }
  const perRound = (a, b, f) => median(rows[a].map((x, i) => f(x) / f(rows[b][i])));
  const total = (x) => x.cpuMs + x.serviceCpuMs;
  results.list = {
    releases: RELEASES,
    pages,
    cli_ms: median(rows.cli.map((x) => x.ms)),
    curl_ms: median(rows.curl.map((x) => x.ms)),
    floor_ms: median(rows.floor.map((x) => x.ms)),
    ratio: perRound('cli', 'curl', (x) => x.ms),
    floor_ratio: perRound('floor', 'curl', (x) => x.ms),
    cpu_ratio: perRound('cli', 'curl', total),
    floor_cpu_ratio: perRound('floor', 'curl', total),
    cpu_ms: Object.fromEntries(
      Object.entries(rows).map(([w, xs]) => [w, { client: median(xs.map((x) => x.cpuMs)), service: median(xs.map((x) => x.serviceCpuMs)) }]),
    ),
    peak_rss_mb: Math.max(...rows.cli.map((x) => x.rss)),
    rounds: LIST_ROUNDS,
    ...(baseBin
      ? {
          base: {
            ms: median(rows.cliBase.map((x) => x.ms)),
            cli_over_base_ms: perRound('cli', 'cliBase', (x) => x.ms),
            cli_over_base_cpu: perRound('cli', 'cliBase', (x) => x.cpuMs),
          },
        }
      : {}),
  };
}

if (argv.includes('--json')) {
  console.log(JSON.stringify({ node: process.version, node_extra_ca_certs: caCerts, rounds: ROUNDS, ...results }, null, 2));
} else {
  console.log(`batches (${ROUNDS} interleaved rounds; node ${process.version}; NODE_EXTRA_CA_CERTS ${caCerts ? 'set' : 'not set'})`);
  if (results.submit) {
    const s = results.submit;
    console.log(
      `  release submit --dry-run <${s.ids} ids>  ${s.cli_rps.toFixed(0)} req/s; wrk, ${s.connections} connection(s): ${s.wrk_rps.toFixed(0)} req/s  x${s.ratio.toFixed(2)} (target >= 0.9x: ${s.ratio >= 0.9 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `    node:http floor (a minimal node client, whole process): ${s.floor_rps.toFixed(0)} req/s x${s.floor_ratio.toFixed(2)} of wrk; the CLI x${s.cli_over_floor.toFixed(2)} of the floor`,
    );
    console.log(
      `    without the CLI's start (${s.ids} ids minus 1 id, which takes ${s.start_ms.toFixed(0)} ms; wrk sends ${s.ids} in ${((s.ids / s.wrk_rps) * 1000).toFixed(0)} ms): x${s.marginal_ratio.toFixed(2)} of wrk`,
    );
    const cpu = s.cpu_ms_per_request;
    console.log(
      `    CPU per request: CLI ${cpu.cli.toFixed(2)} ms (start included), service ${cpu.service_for_cli.toFixed(2)} ms for the CLI, ${cpu.service_for_wrk.toFixed(2)} ms for wrk, ${cpu.service_for_floor.toFixed(2)} ms for the floor; wrk itself ${cpu.wrk.toFixed(2)} ms`,
    );
    console.log(`    CPU ratio (wrk + its service's CPU per release, over the CLI + its service's): x${s.cpu_ratio.toFixed(2)}`);
    if (s.base) {
      console.log(
        `    --base-bin: ${s.base.cli_rps.toFixed(0)} req/s x${s.base.ratio.toFixed(2)} of wrk; this build x${s.cli_over_base.toFixed(2)} of it (req/s); CPU per request: CLI ${s.base.cpu_ms_per_request.cli.toFixed(2)} ms, service ${s.base.cpu_ms_per_request.service_for_cli.toFixed(2)} ms`,
      );
    }
  }
  if (results.real) {
    const r = results.real;
    console.log(
      `  release submit <${r.ids} ids> (real submits)  ${r.cli_rps.toFixed(0)} releases/s; wrk, ${r.connections} connection(s), each once: ${r.wrk_rps.toFixed(0)} req/s  x${r.ratio.toFixed(2)} (target >= 0.9x: ${r.ratio >= 0.9 ? 'met' : 'NOT met'})`,
    );
    const cpu = r.cpu_ms_per_release;
    console.log(
      `    CPU per release: CLI ${cpu.cli.toFixed(2)} ms (start included), service ${cpu.service_for_cli.toFixed(2)} ms for the CLI's batches, ${cpu.service_for_wrk.toFixed(2)} ms for wrk; wrk itself ${cpu.wrk.toFixed(2)} ms`,
    );
    console.log(`    CPU ratio (wrk + its service's CPU per release, over the CLI + its service's): x${r.cpu_ratio.toFixed(2)}`);
  }
  if (results.list) {
    const l = results.list;
    console.log(
      `  release list --all --json, ${l.releases} releases (${l.rounds} rounds)  ${l.cli_ms.toFixed(0)} ms; curl, ${l.pages} pages of 100: ${l.curl_ms.toFixed(0)} ms  x${l.ratio.toFixed(2)} (target <= 1.1x: ${l.ratio <= 1.1 ? 'met' : 'NOT met'}); peak RSS ${l.peak_rss_mb.toFixed(0)} MB`,
    );
    console.log(
      `    CPU, client + service (what a machine with no core to spare pays): x${l.cpu_ratio.toFixed(2)} of curl's; floor (bench/list-floor.mjs, a minimal node client) ${l.floor_ms.toFixed(0)} ms x${l.floor_ratio.toFixed(2)} of curl, CPU x${l.floor_cpu_ratio.toFixed(2)}`,
    );
    if (l.base)
      console.log(
        `    --base-bin: ${l.base.ms.toFixed(0)} ms; this build x${l.base.cli_over_base_ms.toFixed(2)} of its time, x${l.base.cli_over_base_cpu.toFixed(2)} of its CPU (per round, medians)`,
      );
    console.log(
      `    CPU ms medians (client/service): ${Object.entries(l.cpu_ms)
        .map(([w, c]) => `${w} ${c.client.toFixed(0)}/${c.service.toFixed(0)}`)
        .join(', ')}`,
    );
  }
}
finish(0);
