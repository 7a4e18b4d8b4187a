#!/usr/bin/env node
// Embedded sandbox benchmark: the same commands run, interleaved round after round, against a
// standing `reldist serve --sandbox` and on the embedded sandbox (nothing configured), both over
// one data directory (so both answer the same data). Prints the median per-round ratio of each
// command, and then the first-run ratio: the embedded command when no background sandbox is
// running (stopped before each such run) against the same command on the standing service, in
// turn the three reads and a write (`release create`), each also on a line of its own, and the
// command right after a first run (it meets the background process the first one started).
// Each ratio is given for wall time and for the command process's CPU time (user + system, read
// by a one-line preload at exit; a background process it starts is not counted in it).
//   node bench/sandbox.mjs [--runs 20] [--warmup 2] [--quick] [--first-only] [--also <checkout>]
//                          [--no-extra-ca] [--json]
//   --quick       5 rounds, 1 warm-up (a smoke run; the ratios move by ±0.3 at that size)
//   --first-only  only the first runs
//   --also DIR    first runs of another checkout's build too (DIR/bin/reldist.js, built), on the
//                 same data, interleaved with this one's: before/after in one run (repeatable)
// Needs a build (`npm run build`); `npm run bench` builds first. Never passes or fails on times.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, startServe, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => numberFlag(argv, name, dflt);
if (argv.includes('--help')) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1)
      .filter((_l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('//')))
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
const quick = argv.includes('--quick');
const RUNS = opt('--runs', quick ? 5 : 20);
const WARMUP = opt('--warmup', quick ? 1 : 2);
const asJson = argv.includes('--json');
const firstOnly = argv.includes('--first-only');
const alsoAt = argv.flatMap((a, i) => (a === '--also' && argv[i + 1] ? [argv[i + 1]] : []));
for (const dir of alsoAt) {
  if (!existsSync(join(dir, 'dist', 'main.js'))) {
    console.error(`bench/sandbox.mjs: ${dir}/dist/main.js is missing; build that checkout first`);
    process.exit(2);
  }
}

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/sandbox.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}

const { work, atExit, finish, fail } = benchRun('sandbox.mjs');
const dataDir = join(work, 'data');
mkdirSync(dataDir, { mode: 0o700 });
// Registered first, so it runs last: after the standing serve has stopped.
atExit(() => stopBackgroundSandbox());

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
  atExit(() => service.stop());
  return service;
}

const service = await startService().catch((err) => fail(err.message));

const base = { ...process.env, NO_COLOR: '1', HOME: work, RELDIST_CONFIG_DIR: join(work, 'config'), RELDIST_DATA_DIR: dataDir };
for (const k of Object.keys(base)) if (/^RELDIST_(BASE_URL|TOKEN|PROFILE)$/.test(k) || /_proxy$/i.test(k)) delete base[k];
if (argv.includes('--no-extra-ca')) delete base.NODE_EXTRA_CA_CERTS;
const served = { ...base, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };
const embedded = base;

// Writes the process's own CPU time at exit (the background process it may start has no preload).
const cpuPreload = join(work, 'cpu-at-exit.cjs');
const cpuFile = join(work, 'cpu-ms');
writeFileSync(
  cpuPreload,
  "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.RELDIST_BENCH_CPU_FILE, String((u.userCPUTime + u.systemCPUTime) / 1000)); });\n",
);

function run(args, env, which = bin) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', cpuPreload, which, ...args], { env: { ...env, RELDIST_BENCH_CPU_FILE: cpuFile }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) fail(`"reldist ${args.join(' ')}" failed (exit ${r.status}): ${r.stderr.trim().split('\n')[0]}`);
  return { ms, cpu: Number(readFileSync(cpuFile, 'utf8')), stdout: r.stdout };
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
// The notice said once per data folder is not part of what is measured. The background process
// this starts writes the code cache of the service 2 s after its start (sandbox-daemon.ts), as
// any process that lives its idle time does: first runs measure a machine where that happened.
run(commands[0].args, embedded);
spawnSync('sleep', ['2.5']);

const times = commands.map(() => ({ served: [], embedded: [] }));
// A first run may as well be a write, which the service's app answers (Hono, its schemas, node's
// undici) where a read is answered by its fast lane: one round in four is a write.
const firstCommands = [
  ...commands,
  {
    name: 'release create (a write)',
    args: (round) => [
      'release',
      'create',
      '--type',
      'single',
      '--title',
      `First run ${round}`,
      '--artist',
      'Nina Vale',
      '--label',
      'Sandbox Records',
      '--json',
    ],
  },
];
const first = {
  served: [],
  embedded: [],
  after: [],
  afterServed: [],
  also: alsoAt.map(() => []),
  byCommand: firstCommands.map(() => ({ served: [], embedded: [] })),
};
for (let round = 0; round < (firstOnly ? 0 : WARMUP + RUNS); round++) {
  commands.forEach((c, i) => {
    const a = run(c.args, served);
    const b = run(c.args, embedded);
    if (round >= WARMUP) {
      times[i].served.push(a);
      times[i].embedded.push(b);
    }
  });
}
// First runs apart: a background sandbox just started is cold for the commands after it (lookups
// load their data on first use), which is not what the rounds above measure. The first first-run
// of a build also makes its code cache (sandbox-code-cache.ts): a warm-up round.
for (let round = 0; round < WARMUP + RUNS; round++) {
  const c = firstCommands[round % firstCommands.length];
  const args = typeof c.args === 'function' ? c.args(round) : c.args;
  const a = run(args, served);
  stopBackgroundSandbox();
  const b = run(args, embedded);
  // The command right after a first run meets the background process that one started (or waits
  // for it to finish starting): what a user's second command costs on a fresh machine.
  const after = run(commands[0].args, embedded);
  const afterServed = run(commands[0].args, served);
  const others = alsoAt.map((dir) => {
    stopBackgroundSandbox();
    return run(args, embedded, join(dir, 'bin', 'reldist.js'));
  });
  stopBackgroundSandbox();
  if (round < WARMUP) continue;
  first.served.push(a);
  first.embedded.push(b);
  first.after.push(after);
  first.afterServed.push(afterServed);
  first.byCommand[round % firstCommands.length].served.push(a);
  first.byCommand[round % firstCommands.length].embedded.push(b);
  others.forEach((o, k) => first.also[k].push(o));
}

const ratioOf = (a, b, k) => median(a.map((x, i) => x[k] / b[i][k]));
const summary = (a, b) => ({
  served_ms: median(b.map((x) => x.ms)),
  embedded_ms: median(a.map((x) => x.ms)),
  ratio: ratioOf(a, b, 'ms'),
  served_cpu_ms: median(b.map((x) => x.cpu)),
  embedded_cpu_ms: median(a.map((x) => x.cpu)),
  cpu_ratio: ratioOf(a, b, 'cpu'),
});
const caCerts = Boolean(base.NODE_EXTRA_CA_CERTS);
const rows = firstOnly ? [] : commands.map((c, i) => ({ command: c.name, ...summary(times[i].embedded, times[i].served) }));
const firstRun = summary(first.embedded, first.served);
const afterFirst = summary(first.after, first.afterServed);
const firstRuns = firstCommands
  .map((c, i) => ({
    command: c.name,
    runs: first.byCommand[i].served.length,
    ...(first.byCommand[i].served.length ? summary(first.byCommand[i].embedded, first.byCommand[i].served) : {}),
  }))
  .filter((r) => r.runs > 0);
const alsoRuns = alsoAt.map((dir, k) => ({ checkout: dir, ...summary(first.also[k], first.served) }));
const overall = firstOnly ? undefined : median(rows.map((r) => r.ratio));
const loadAvg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

if (asJson) {
  console.log(
    JSON.stringify(
      {
        runs: RUNS,
        node: process.version,
        node_extra_ca_certs: caCerts,
        load_average: loadAvg,
        commands: rows,
        first_run: firstRun,
        first_run_by_command: firstRuns,
        right_after_first_run: afterFirst,
        also_first_run: alsoRuns,
        median_ratio: overall,
      },
      null,
      2,
    ),
  );
} else {
  const line = (name, r) =>
    `  ${name.padEnd(26)} serve ${r.served_ms.toFixed(1).padStart(6)} ms  embedded ${r.embedded_ms.toFixed(1).padStart(6)} ms  x${r.ratio.toFixed(2)}` +
    `   cpu ${r.served_cpu_ms.toFixed(1).padStart(5)} / ${r.embedded_cpu_ms.toFixed(1).padStart(5)} ms  x${r.cpu_ratio.toFixed(2)}`;
  console.log(
    `embedded sandbox vs a standing serve (${RUNS} interleaved rounds, ${WARMUP} warm-up; node ${process.version}; NODE_EXTRA_CA_CERTS ${caCerts ? 'set' : 'not set'}; load average ${loadAvg})`,
  );
  for (const r of rows) console.log(line(r.command, r));
  console.log(`${line('first run (none running)', firstRun)}  (target <= 1.6x wall: ${firstRun.ratio <= 1.6 ? 'met' : 'NOT met'})`);
  for (const r of firstRuns) console.log(`${line(`  ${r.command}`, r)}  (${r.runs} runs)`);
  console.log(`${line('right after a first run', afterFirst)}  (release list, the next command)`);
  for (const r of alsoRuns) console.log(line(`first run, ${r.checkout}`.slice(-26), r));
  if (overall !== undefined) console.log(`  median ratio ${overall.toFixed(2)}x (target <= 1.3x: ${overall <= 1.3 ? 'met' : 'NOT met'})`);
}
finish(0);
