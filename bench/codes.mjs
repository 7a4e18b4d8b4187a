#!/usr/bin/env node
// Throughput and memory of `reldist validate upc|isrc --file F --json` on generated files,
// against baselines measured in the same run:
//   - the readline floor: a minimal node script that streams the file with node:readline and
//     counts its lines (no node tool reading that file can be faster by much);
//   - python-stdnum doing the same validation (/usr/bin/python3, stdnum.ean / stdnum.isrc).
// Prints ratios, never pass/fail on absolute time. Files go to a temp dir, removed at the end.
//
//   node bench/codes.mjs [--codes 1000000] [--runs 3] [--python-runs 1] [--big-factor 4]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'reldist.js');
const PYTHON = '/usr/bin/python3';
const TIME = '/usr/bin/time';

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}
const N = flag('codes', 1_000_000);
const RUNS = flag('runs', 3);
const PY_RUNS = flag('python-runs', 1);
const BIG = flag('big-factor', 4);

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

const upcLine = (random, i) => {
  const data = String(Math.floor(random() * 1e11)).padStart(11, '0');
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

/** Runs a command with stdout to /dev/null (or captured); returns seconds, peak RSS in KiB, output. */
function measure(cmd, args, { capture = false } = {}) {
  const devnull = openSync('/dev/null', 'w');
  const rssFile = join(dir, 'rss.txt');
  const [file, argv] = haveTime ? [TIME, ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  const start = process.hrtime.bigint();
  const r = spawnSync(file, argv, { stdio: ['ignore', capture ? 'pipe' : devnull, 'pipe'], maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  closeSync(devnull);
  let rssKiB = null;
  if (haveTime) {
    const text = spawnSync('cat', [rssFile], { encoding: 'utf8' }).stdout.trim().split('\n').pop();
    rssKiB = Number(text) || null;
  }
  if (r.error) throw r.error;
  return { seconds, rssKiB, status: r.status, stdout: r.stdout?.toString() ?? '', stderr: r.stderr.toString() };
}

function median(runs, pick) {
  const xs = runs.map(pick).sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)];
}

function repeat(times, fn) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(fn());
  return { seconds: median(runs, (r) => r.seconds), rssKiB: median(runs, (r) => r.rssKiB ?? 0) || null, last: runs[runs.length - 1] };
}

const fmt = (x, d = 2) => x.toFixed(d);
const rate = (n, s) => `${Math.round(n / s).toLocaleString('en-US')}/s`;
const mb = (kib) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MB`);

function reldistRun(kind, file) {
  const r = measure(process.execPath, [BIN, 'validate', kind, '--file', file, '--json']);
  if (r.status !== 0 && r.status !== 3) throw new Error(`reldist validate ${kind} exited ${r.status}: ${r.stderr}`);
  const summary = JSON.parse(r.stderr.split('\n')[0]).summary;
  return { ...r, summary };
}

// ---- the run ----

if (!existsSync(BIN) || !existsSync(join(ROOT, 'dist', 'main.js'))) {
  console.error('bench/codes: build first (npm run build)');
  process.exit(2);
}
console.log(`node ${process.version}; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'is set (slows every node start on Node 20)' : 'is not set'}`);
console.log(`${N.toLocaleString('en-US')} codes per file (1% invalid, 1% with separators); median of ${RUNS} runs (python-stdnum: ${PY_RUNS}); peak RSS ${haveTime ? 'from /usr/bin/time' : 'not available (no /usr/bin/time)'}`);

const files = {
  upc: join(dir, 'upc.txt'),
  isrc: join(dir, 'isrc.txt'),
  upcBig: join(dir, 'upc-big.txt'),
  isrcBig: join(dir, 'isrc-big.txt'),
};
await writeLines(files.upc, N, upcLine);
await writeLines(files.isrc, N, isrcLine);
await writeLines(files.upcBig, N * BIG, upcLine);
await writeLines(files.isrcBig, N * BIG, isrcLine);

const pyVersion = spawnSync(PYTHON, ['-c', 'import stdnum; print(stdnum.__version__)'], { encoding: 'utf8' });
const havePython = pyVersion.status === 0;
if (!havePython) console.log('python-stdnum: not available, that baseline is skipped');
else console.log(`python-stdnum ${pyVersion.stdout.trim()}`);

for (const kind of ['upc', 'isrc']) {
  const file = files[kind];
  console.log(`\n${kind.toUpperCase()}`);
  const floor = repeat(RUNS, () => measure(process.execPath, [FLOOR, file]));
  console.log(`  readline floor         ${fmt(floor.seconds)} s   ${rate(N, floor.seconds)}`);
  let py;
  if (havePython) {
    py = repeat(PY_RUNS, () => measure(PYTHON, [STDNUM, kind, file], { capture: true }));
    console.log(`  python-stdnum          ${fmt(py.seconds)} s   ${rate(N, py.seconds)}   (valid, invalid: ${py.last.stdout.trim()})`);
  }
  const ours = repeat(RUNS, () => reldistRun(kind, file));
  const s = ours.last.summary;
  console.log(`  reldist --json         ${fmt(ours.seconds)} s   ${rate(N, ours.seconds)}   (valid ${s.valid}, invalid ${s.invalid})`);
  if (py) {
    const x = py.seconds / ours.seconds;
    console.log(`  throughput vs python-stdnum: ${fmt(x, 1)}x (target at least 10x: ${x >= 10 ? 'met' : 'NOT met'})`);
    const [pv] = py.last.stdout.trim().split(' ').map(Number);
    if (pv !== s.valid) console.log(`  note: python-stdnum counted ${pv} valid, reldist ${s.valid} (policies differ)`);
  }
  const t = ours.seconds / floor.seconds;
  console.log(`  time vs readline floor: ${fmt(t)}x (target at most 2x: ${t <= 2 ? 'met' : 'NOT met'})`);

  const big = repeat(1, () => reldistRun(kind, files[`${kind}Big`]));
  const grow = ours.rssKiB && big.rssKiB ? big.rssKiB / ours.rssKiB : null;
  console.log(
    `  peak RSS: ${mb(ours.rssKiB)} for ${N.toLocaleString('en-US')} codes, ${mb(big.rssKiB)} for ${(N * BIG).toLocaleString('en-US')}` +
      (grow === null ? '' : ` (x${fmt(grow)} for ${BIG}x the input; flat means close to 1)`),
  );
}

// Start-up: offline validation of one code must cost about what printing the version does.
const START_RUNS = Math.max(5, RUNS * 3);
const version = repeat(START_RUNS, () => measure(process.execPath, [BIN, '--version']));
const one = repeat(START_RUNS, () => measure(process.execPath, [BIN, 'validate', 'upc', '036000241457']));
console.log(`\nstart-up (median of ${START_RUNS}): reldist --version ${fmt(version.seconds, 3)} s, reldist validate upc 036000241457 ${fmt(one.seconds, 3)} s (${fmt(one.seconds / version.seconds)}x)`);
console.log(`\nreproduce: npm run bench   (or: npm run build && node bench/codes.mjs --codes ${N})`);
