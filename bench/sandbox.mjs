#!/usr/bin/env node
// Embedded sandbox benchmark: the same commands run, interleaved round after round, against a
// standing `reldist serve --sandbox` and on the embedded sandbox (nothing configured), both over
// one data directory (so both answer the same data). Prints the median per-round ratio of each
// command, and then the first-run ratio: the embedded command when no background sandbox is
// running (stopped before each such run) against the same command on the standing service.
//   node bench/sandbox.mjs [--runs 20] [--warmup 2] [--no-extra-ca] [--json]
// Needs a build (`npm run build`); `npm run bench` builds first. Never passes or fails on times.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, startServe } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => numberFlag(argv, name, dflt);
const RUNS = opt('--runs', 20);
const WARMUP = opt('--warmup', 2);
const asJson = argv.includes('--json');

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/sandbox.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'reldist-bench-sandbox-'));
const dataDir = join(work, 'data');
mkdirSync(dataDir, { mode: 0o700 });
const cleanup = [];
function finish(code) {
  stopBackgroundSandbox();
  for (const f of cleanup.reverse()) f();
  rmSync(work, { recursive: true, force: true });
  process.exit(code);
}

/**
 * The embedded sandbox may leave a background process for later commands: stop it (bounded
 * waits). A first run does not wait for the process it spawns, so it may still be starting (the
 * lock file names it until it has written its state file): wait for that first.
 */
function stopBackgroundSandbox() {
  const file = join(dataDir, 'sandbox-server.json');
  for (let i = 0; i < 1000 && existsSync(join(dataDir, 'sandbox-server.lock')); i++) spawnSync('sleep', ['0.02']);
  let pid;
  try {
    pid = JSON.parse(readFileSync(file, 'utf8')).pid;
  } catch {
    return;
  }
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    spawnSync('sleep', ['0.02']);
  }
}

async function startService() {
  const service = await startServe(bin, dataDir);
  cleanup.push(() => service.stop());
  return service;
}

const service = await startService().catch((err) => {
  console.error(`bench/sandbox.mjs: ${err.message}`);
  finish(1);
});

const base = { ...process.env, NO_COLOR: '1', HOME: work, RELDIST_CONFIG_DIR: join(work, 'config'), RELDIST_DATA_DIR: dataDir };
for (const k of Object.keys(base)) if (/^RELDIST_(BASE_URL|TOKEN|PROFILE)$/.test(k) || /_proxy$/i.test(k)) delete base[k];
if (argv.includes('--no-extra-ca')) delete base.NODE_EXTRA_CA_CERTS;
const served = { ...base, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };
const embedded = base;

function run(args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    console.error(`bench/sandbox.mjs: "reldist ${args.join(' ')}" failed (exit ${r.status}): ${r.stderr.trim().split('\n')[0]}`);
    finish(1);
  }
  return { ms, stdout: r.stdout };
}

// A small catalog, made through the standing service; the embedded sandbox sees the same rows.
let id;
for (let i = 0; i < 20; i++) {
  const made = run(['release', 'create', '--type', 'single', '--title', `Bench ${i}`, '--artist', 'Nina Vale', '--label', 'Sandbox Records', '--json'], served);
  id ??= JSON.parse(made.stdout).id;
}
const commands = [
  { name: 'release list --json', args: ['release', 'list', '--json'] },
  { name: 'release get <id> --json', args: ['release', 'get', id, '--json'] },
  { name: 'lookup countries --json', args: ['lookup', 'countries', '--json'] },
];
// The notice said once per data folder is not part of what is measured.
run(commands[0].args, embedded);

const times = commands.map(() => ({ served: [], embedded: [] }));
const first = { served: [], embedded: [] };
for (let round = 0; round < WARMUP + RUNS; round++) {
  commands.forEach((c, i) => {
    const a = run(c.args, served).ms;
    const b = run(c.args, embedded).ms;
    if (round >= WARMUP) {
      times[i].served.push(a);
      times[i].embedded.push(b);
    }
  });
}
// First runs apart: a background sandbox just started is cold for the commands after it (lookups
// load their data on first use), which is not what the rounds above measure.
for (let round = 0; round < RUNS; round++) {
  const c = commands[round % commands.length];
  stopBackgroundSandbox();
  first.served.push(run(c.args, served).ms);
  first.embedded.push(run(c.args, embedded).ms);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ratioOf = (a, b) => median(a.map((x, k) => x / b[k]));
const caCerts = Boolean(base.NODE_EXTRA_CA_CERTS);
const rows = commands.map((c, i) => ({
  command: c.name,
  served_ms: median(times[i].served),
  embedded_ms: median(times[i].embedded),
  ratio: ratioOf(times[i].embedded, times[i].served),
}));
const firstRun = {
  served_ms: median(first.served),
  embedded_ms: median(first.embedded),
  ratio: ratioOf(first.embedded, first.served),
};
const overall = median(rows.map((r) => r.ratio));

if (asJson) {
  console.log(JSON.stringify({ runs: RUNS, node: process.version, node_extra_ca_certs: caCerts, commands: rows, first_run: firstRun, median_ratio: overall }, null, 2));
} else {
  console.log(`embedded sandbox vs a standing serve (${RUNS} interleaved rounds, ${WARMUP} warm-up; node ${process.version}; NODE_EXTRA_CA_CERTS ${caCerts ? 'set' : 'not set'})`);
  for (const r of rows) {
    console.log(`  ${r.command.padEnd(26)} serve ${r.served_ms.toFixed(1).padStart(6)} ms  embedded ${r.embedded_ms.toFixed(1).padStart(6)} ms  x${r.ratio.toFixed(2)}`);
  }
  console.log(`  ${'first run (none running)'.padEnd(26)} serve ${firstRun.served_ms.toFixed(1).padStart(6)} ms  embedded ${firstRun.embedded_ms.toFixed(1).padStart(6)} ms  x${firstRun.ratio.toFixed(2)}  (target <= 1.6x: ${firstRun.ratio <= 1.6 ? 'met' : 'NOT met'})`);
  console.log(`  median ratio ${overall.toFixed(2)}x (target <= 1.3x: ${overall <= 1.3 ? 'met' : 'NOT met'})`);
}
finish(0);
