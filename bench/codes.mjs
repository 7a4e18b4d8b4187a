#!/usr/bin/env node
// Throughput and memory of `reldist validate upc|isrc --file F --json` on generated files,
// against baselines measured in the same run:
//   - the readline floor: a minimal node script that streams the file with node:readline and
//     counts its lines (no node tool reading that file can be faster by much);
//   - python-stdnum doing the same validation (/usr/bin/python3, stdnum.ean / stdnum.isrc).
// and the start-up of `reldist validate upc 036000241457` against `reldist --version`.
//
// Made for a shared, busy machine: the commands of a round run one after the other (floor,
// python-stdnum, reldist, floor, python-stdnum, reldist, …), each ratio is taken within a round
// (so both sides saw the same load), and the report gives the median ratio with its spread
// (min–max over rounds). It never passes or fails on absolute times; "met" compares ratios.
// Files go to a temp dir, removed at the end.
//
//   node bench/codes.mjs [--codes 1000000] [--rounds 5] [--python-rounds 3] [--big-factor 4]
//                        [--startup-rounds 20] [--bin path/to/reldist.js] [--only upc|isrc]
//                        [--no-extra-ca]
// --no-extra-ca runs every measured command without NODE_EXTRA_CA_CERTS: on Node 20 that
// variable makes each node start read the CA file (about 50 ms on the development machine),
// a fixed cost that python-stdnum does not pay and most users' machines do not have.
import { spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = '/usr/bin/python3';
const TIME = '/usr/bin/time';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const N = Number(option('codes', 1_000_000));
const ROUNDS = Number(option('rounds', 5));
const PY_ROUNDS = Math.min(ROUNDS, Number(option('python-rounds', 3)));
const BIG = Number(option('big-factor', 4));
const START_ROUNDS = Number(option('startup-rounds', 20));
const BIN = resolve(option('bin', join(ROOT, 'bin', 'reldist.js')));
const ONLY = option('only', undefined);
const NO_EXTRA_CA = process.argv.includes('--no-extra-ca');
const childEnv = { ...process.env };
if (NO_EXTRA_CA) delete childEnv.NODE_EXTRA_CA_CERTS;

const dir = mkdtempSync(join(tmpdir(), 'reldist-bench-codes-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// ---- generated inputs: mostly bare valid codes, 1% invalid, 1% written with separators ----

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function checkDigit(data) {
  let sum = 0;
  let w = 3;
  for (let i = data.length - 1; i >= 0; i--) {
    sum += (data.charCodeAt(i) - 48) * w;
    w = 4 - w;
  }
  return (10 - (sum % 10)) % 10;
}

async function writeLines(path, count, make) {
  const out = createWriteStream(path);
  const random = rng(count);
  let batch = '';
  for (let i = 0; i < count; i++) {
    batch += `${make(random, i)}\n`;
    if (batch.length > 1 << 16) {
      if (!out.write(batch)) await new Promise((r) => out.once('drain', r));
      batch = '';
    }
  }
  out.write(batch);
  await new Promise((r) => out.end(r));
}

// Release UPC-As: a first digit of 2 or 4 (restricted circulation) or 5 (coupons) would be a
// warning (docs/codes.md), which real catalogues do not have, so those are left out.
const UPC_FIRST = '0136789';
const upcLine = (random, i) => {
  const data = UPC_FIRST[Math.floor(random() * UPC_FIRST.length)] + String(Math.floor(random() * 1e10)).padStart(10, '0');
  const code = data + checkDigit(data);
  if (i % 100 === 50) return data + ((checkDigit(data) + 1) % 10); // bad check digit
  if (i % 100 === 70) return `${code[0]} ${code.slice(1, 6)} ${code.slice(6, 11)} ${code[11]}`;
  return code;
};

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'NL', 'SE', 'CA', 'AU', 'IT', 'ES'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const isrcLine = (random, i) => {
  const cc = COUNTRIES[Math.floor(random() * COUNTRIES.length)];
  let reg = '';
  for (let k = 0; k < 3; k++) reg += ALNUM[Math.floor(random() * 36)];
  const yy = String(Math.floor(random() * 25)).padStart(2, '0');
  const nnnnn = String(Math.floor(random() * 1e5)).padStart(5, '0');
  if (i % 100 === 50) return `${cc}${reg}${yy}${nnnnn.slice(1)}X`; // letter in the designation
  if (i % 100 === 70) return `${cc.toLowerCase()}-${reg.toLowerCase()}-${yy}-${nnnnn}`;
  return cc + reg + yy + nnnnn;
};

// ---- baselines ----

const FLOOR = join(dir, 'readline-floor.mjs');
writeFileSync(
  FLOOR,
  `import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
const rl = createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity });
rl.on('line', () => { n++; });
rl.on('close', () => console.log(n));
`,
);

const STDNUM = join(dir, 'stdnum_check.py');
writeFileSync(
  STDNUM,
  `import sys
from stdnum import ean, isrc
check = ean.is_valid if sys.argv[1] == 'upc' else isrc.is_valid
valid = invalid = 0
with open(sys.argv[2], encoding='utf-8') as f:
    for line in f:
        code = line.rstrip('\\r\\n')
        if not code:
            continue
        if check(code):
            valid += 1
        else:
            invalid += 1
print(valid, invalid)
`,
);

// ---- measuring ----

const haveTime = existsSync(TIME);
const rssFile = join(dir, 'rss.txt');

/** Runs a command with stdout to /dev/null (or captured): wall seconds, CPU seconds, peak RSS in KiB. */
function measure(cmd, args, { capture = false } = {}) {
  const devnull = openSync('/dev/null', 'w');
  const [file, argv] = haveTime ? [TIME, ['-f', '%U %S %M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  const start = process.hrtime.bigint();
  const r = spawnSync(file, argv, { stdio: ['ignore', capture ? 'pipe' : devnull, 'pipe'], maxBuffer: 1 << 26, env: childEnv });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  closeSync(devnull);
  if (r.error) throw r.error;
  let cpu = null;
  let rssKiB = null;
  if (haveTime) {
    const [user, sys, rss] = readFileSync(rssFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    cpu = user + sys;
    rssKiB = rss || null;
  }
  return { seconds, cpu, rssKiB, status: r.status, stdout: r.stdout?.toString() ?? '', stderr: r.stderr.toString() };
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
}
const median = (xs) => quantile(xs, 0.5);
const fmt = (x, d = 2) => x.toFixed(d);
/** "median [min–max]" of a list of numbers. */
const spread = (xs, d = 2, unit = '') => `${fmt(median(xs), d)}${unit} [${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}]`;
const rate = (n, s) => `${(n / s / 1e6).toFixed(2)}M codes/s`;
const mb = (kib) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MB`);

function reldistRun(kind, file) {
  const r = measure(process.execPath, [BIN, 'validate', kind, '--file', file, '--json']);
  if (r.status !== 0 && r.status !== 3) throw new Error(`reldist validate ${kind} exited ${r.status}: ${r.stderr}`);
  return { ...r, summary: JSON.parse(r.stderr.split('\n')[0]).summary };
}

// ---- the run ----

if (!existsSync(BIN)) {
  console.error(`bench/codes: ${BIN} is missing (npm run build, or --bin)`);
  process.exit(2);
}
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${load()} at start`);
console.log(
  `NODE_EXTRA_CA_CERTS ${
    !process.env.NODE_EXTRA_CA_CERTS
      ? 'is not set'
      : NO_EXTRA_CA
        ? 'is set here, but the measured commands run without it (--no-extra-ca)'
        : 'is SET for the measured commands (every node start reads the extra CA file on Node 20: slower starts for reldist and the floor alike; try --no-extra-ca)'
  }`,
);
console.log(`binary: ${BIN}`);
console.log(
  `${N.toLocaleString('en-US')} codes per file (1% invalid, 1% with separators); ${ROUNDS} interleaved rounds (python-stdnum in ${PY_ROUNDS}); ` +
    `ratios are per round, shown as median [min–max]; peak RSS ${haveTime ? 'from /usr/bin/time' : 'not available (no /usr/bin/time)'}`,
);

const kinds = ONLY ? [ONLY] : ['upc', 'isrc'];
const make = { upc: upcLine, isrc: isrcLine };
const files = {};
for (const kind of kinds) {
  files[kind] = join(dir, `${kind}.txt`);
  files[`${kind}Big`] = join(dir, `${kind}-big.txt`);
  await writeLines(files[kind], N, make[kind]);
  await writeLines(files[`${kind}Big`], N * BIG, make[kind]);
}

const pyVersion = spawnSync(PYTHON, ['-c', 'import stdnum; print(stdnum.__version__)'], { encoding: 'utf8' });
const havePython = pyVersion.status === 0;
console.log(havePython ? `python-stdnum ${pyVersion.stdout.trim()}` : 'python-stdnum: not available, that baseline is skipped');

// Rounds: every kind's floor, python-stdnum and reldist back to back, then the next round.
const runs = Object.fromEntries(kinds.map((k) => [k, { floor: [], py: [], ours: [], big: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of kinds) {
    const r = runs[kind];
    r.floor.push(measure(process.execPath, [FLOOR, files[kind]]));
    if (havePython && round < PY_ROUNDS) r.py.push(measure(PYTHON, [STDNUM, kind, files[kind]], { capture: true }));
    r.ours.push(reldistRun(kind, files[kind]));
    // Memory: the big file in some rounds (it takes BIG times as long).
    if (round < 2) r.big.push(reldistRun(kind, files[`${kind}Big`]));
  }
  process.stderr.write(`  round ${round + 1}/${ROUNDS} done\n`);
}

const verdict = (ok) => (ok ? 'met' : 'NOT met');
for (const kind of kinds) {
  const { floor, py, ours, big } = runs[kind];
  const s = ours[0].summary;
  console.log(`\n${kind.toUpperCase()}  (reldist: valid ${s.valid}, invalid ${s.invalid}, warnings ${s.warnings})`);
  const secs = (xs) => xs.map((r) => r.seconds);
  console.log(`  readline floor    ${spread(secs(floor), 3, ' s')}   ${rate(N, median(secs(floor)))}`);
  if (py.length > 0) console.log(`  python-stdnum     ${spread(secs(py), 3, ' s')}   ${rate(N, median(secs(py)))}   (valid, invalid: ${py[0].stdout.trim()})`);
  console.log(`  reldist --json    ${spread(secs(ours), 3, ' s')}   ${rate(N, median(secs(ours)))}`);

  if (py.length > 0) {
    const x = py.map((p, i) => p.seconds / ours[i].seconds);
    console.log(`  throughput vs python-stdnum: ${spread(x, 1, 'x')}   target at least 10x: ${verdict(median(x) >= 10)}${Math.min(...x) >= 10 ? ' (every round)' : ''}`);
    const [pv] = py[0].stdout.trim().split(' ').map(Number);
    if (pv !== s.valid) console.log(`    (python-stdnum counts ${pv} valid, reldist ${s.valid}: the policies differ, see docs/codes.md)`);
  }
  const t = floor.map((f, i) => ours[i].seconds / f.seconds);
  console.log(`  time vs readline floor:      ${spread(t, 2, 'x')}   target at most 2x: ${verdict(median(t) <= 2)}${Math.max(...t) <= 2 ? ' (every round)' : ''}`);
  if (haveTime) {
    const c = floor.map((f, i) => ours[i].cpu / f.cpu);
    console.log(`  CPU time vs floor (user+sys, less sensitive to load): ${spread(c, 2, 'x')}`);
    const small = median(ours.map((r) => r.rssKiB));
    const large = median(big.map((r) => r.rssKiB));
    console.log(
      `  peak RSS: ${mb(small)} for ${N.toLocaleString('en-US')} codes, ${mb(large)} for ${(N * BIG).toLocaleString('en-US')} ` +
        `(x${fmt(large / small)} for ${BIG}x the input; flat means close to 1); floor ${mb(median(floor.map((r) => r.rssKiB)))}`,
    );
  }
}

// Start-up: offline validation of one code against printing the version, interleaved.
if (START_ROUNDS > 0) {
  const cases = [
    ['node -e 0', [process.execPath, '-e', '0']],
    ['reldist --version', [process.execPath, BIN, '--version']],
    ['reldist validate upc --help', [process.execPath, BIN, 'validate', 'upc', '--help']],
    ['reldist validate upc 036000241457', [process.execPath, BIN, 'validate', 'upc', '036000241457']],
  ];
  const times = cases.map(() => []);
  for (let i = 0; i < 3 + START_ROUNDS; i++) {
    cases.forEach(([, [cmd, ...args]], k) => {
      const r = measure(cmd, args);
      if (i >= 3) times[k].push(r.seconds * 1000); // the first 3 rounds warm the file cache
    });
  }
  console.log(`\nstart-up, ${START_ROUNDS} interleaved rounds, ms as median [min–max]:`);
  cases.forEach(([name], k) => console.log(`  ${name.padEnd(36)} ${spread(times[k], 1)}`));
  const ratio = times[3].map((t, i) => t / times[1][i]);
  console.log(`  validate upc 036000241457 / --version: ${spread(ratio, 2, 'x')} per round`);
}
console.log(`\nload average ${load()} at the end`);
console.log(`reproduce: npm run bench   (or: npm run build && node bench/codes.mjs --codes ${N} --rounds ${ROUNDS}${NO_EXTRA_CA ? ' --no-extra-ca' : ''})`);
