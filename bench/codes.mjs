#!/usr/bin/env node
// Throughput of `reldist validate upc|isrc --file F --json` on generated files with 0%, 1%, 10%
// and 50% invalid lines, against python-stdnum doing the same checks in the same run; optionally
// against another build (--compare, e.g. main's) on the same files; the start-up of one offline
// check; and a terminal (a pseudo-terminal from `script`) against piped output.
//
// Invalid lines are the ones support sees: a wrong check digit, a wrong length, a letter among
// the digits, and spreadsheet damage (3.6E+11, a trailing .0, quotes, a lost leading zero); for
// ISRCs a letter or digit out of place, a wrong length, quotes, a slash. Valid lines are bare
// codes, 1 in 100 written with spaces or hyphens.
//
// Made for a shared, busy machine: within a round the commands run one after the other (python,
// reldist[, compare], next file, …), each ratio is taken within a round, and the report gives the
// median ratio with its spread (min–max), of wall time and of CPU time (user + sys, from
// the kernel's rusage through python's os.wait4, else /usr/bin/time). It never passes or fails on
// absolute times.
//
//   node bench/codes.mjs [--quick] [--codes 1000000] [--rounds 3] [--mixes 0,1,10,50,r30]
//                        [--only upc|isrc] [--bin path/to/reldist.js] [--compare other/reldist.js]
//                        [--startup-rounds 20] [--tty-codes 200000] [--tty-rounds 3] [--no-extra-ca]
//                        [--files DIR] [--damage-only] [--damage-lines 1000000] [--damage-rounds 9]
//                        [--damage-kinds repeated,spaces] [--damage-floor] [--pin CPU|none]
// --quick: 200,000 codes, 2 rounds, 5 start-up rounds, 1 terminal round (about 30 s; ratios
// flatter reldist less, its fixed start-up weighs more on a small file).
// --damage-only runs only the section "one kind of line at a time": a file per kind of line
// (valid, wrong check digit, letters or punctuation inside, wrong length, repeated codes, and
// spreadsheet damage), each kind's cost per line as a ratio to valid lines (--damage-rounds 0
// leaves the section out of a full run). Each round runs every kind's file, and the start-up
// twice, in a new (seeded) order; CPU time comes from the kernel's rusage to the microsecond
// (through python's os.wait4) and the commands are pinned to one CPU with taskset when it exists
// (--pin none: not pinned). The ratios are medians of per-round ratios, with their spread.
// --damage-floor adds the floor (node reading the file and writing as many bytes) to each round.
// --no-extra-ca runs every measured command without NODE_EXTRA_CA_CERTS: on Node 20 that
// variable makes each node start read the CA file, a fixed cost python-stdnum does not pay.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = '/usr/bin/python3';
const TIME = '/usr/bin/time';

const QUICK = process.argv.includes('--quick');
function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const N = Number(option('codes', QUICK ? 200_000 : 1_000_000));
const ROUNDS = Number(option('rounds', QUICK ? 2 : 3));
// A mix is the share of invalid lines, or rN: N% of the lines repeat an earlier code (a catalog
// naming a track's ISRC, or a release's UPC, on each row it appears on), none invalid.
const MIXES = option('mixes', '0,1,10,50,r30').split(',');
const mixParts = (mix) => (mix.startsWith('r') ? { invalid: 0, repeats: Number(mix.slice(1)) } : { invalid: Number(mix), repeats: 0 });
const mixLabel = (mix) => (mix.startsWith('r') ? `${mix.slice(1)}% rep` : `${mix}%`);
const START_ROUNDS = Number(option('startup-rounds', QUICK ? 5 : 20));
const TTY_CODES = Number(option('tty-codes', 200_000));
const TTY_ROUNDS = Number(option('tty-rounds', QUICK ? 1 : 3));
const BIN = resolve(option('bin', join(ROOT, 'bin', 'reldist.js')));
const COMPARE = option('compare', undefined) && resolve(option('compare'));
const ONLY = option('only', undefined);
const NO_EXTRA_CA = process.argv.includes('--no-extra-ca');
const childEnv = { ...process.env };
if (NO_EXTRA_CA) delete childEnv.NODE_EXTRA_CA_CERTS;
const TARGET = 10;

// --files DIR: the generated inputs are written to (and kept in) DIR, and reused from there when
// present, e.g. to profile one command on the same file (`node --cpu-prof bin/reldist.js …`).
const FILES = option('files', undefined) && resolve(option('files'));
const dir = mkdtempSync(join(tmpdir(), 'reldist-bench-codes-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
if (FILES) mkdirSync(FILES, { recursive: true });

// ---- generated inputs ----

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
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

/** `count` lines, `percent`% of them invalid, spread evenly (line i is invalid when the running share steps up). */
async function writeLines(path, count, mix, valid, invalid) {
  const { invalid: percent, repeats } = mixParts(mix);
  const out = createWriteStream(path);
  const random = rng(count + percent + 1000 * repeats);
  let batch = '';
  let bad = 0;
  const earlier = [];
  for (let i = 0; i < count; i++) {
    const isBad = Math.floor(((i + 1) * percent) / 100) > Math.floor((i * percent) / 100);
    const repeat = !isBad && earlier.length > 0 && random() * 100 < repeats;
    const line = isBad ? invalid(random, bad++) : repeat ? earlier[Math.floor(random() * earlier.length)] : valid(random, i);
    if (repeats > 0 && !isBad && !repeat) earlier.push(line);
    batch += `${line}\n`;
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
const upcCode = (random, first = UPC_FIRST[Math.floor(random() * UPC_FIRST.length)]) => {
  const data = first + String(Math.floor(random() * 1e10)).padStart(10, '0');
  return data + checkDigit(data);
};
const upcValid = (random, i) => {
  const code = upcCode(random);
  return i % 100 === 70 ? `${code[0]} ${code.slice(1, 6)} ${code.slice(6, 11)} ${code[11]}` : code;
};
const LETTERS = 'OIlSB';
const upcInvalid = (random, k) => {
  const code = upcCode(random);
  switch (k % 8) {
    case 0:
    case 1: // the common one: a wrong check digit
      return code.slice(0, 11) + ((Number(code[11]) + 1 + Math.floor(random() * 9)) % 10);
    case 2: // a digit dropped or doubled
      return random() < 0.5 ? code.slice(0, 5) + code.slice(6) : code.slice(0, 6) + code.slice(5);
    case 3: {
      // a letter typed for a digit
      const at = 1 + Math.floor(random() * 10);
      return code.slice(0, at) + LETTERS[Math.floor(random() * LETTERS.length)] + code.slice(at + 1);
    }
    case 4: // scientific notation
      return `${code[0] === '0' ? code[1] : code[0]}.${code.slice(2, 7)}E+${code[0] === '0' ? 10 : 11}`;
    case 5: // stored as a number: ".0", its leading zeros gone
      return `${String(Number(code))}.0`;
    case 6: // quoted
      return `"${code}"`;
    default: // a lost leading zero
      return upcCode(random, '0').slice(1);
  }
};

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'NL', 'SE', 'CA', 'AU', 'IT', 'ES'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const isrcCode = (random) => {
  const cc = COUNTRIES[Math.floor(random() * COUNTRIES.length)];
  let reg = '';
  for (let k = 0; k < 3; k++) reg += ALNUM[Math.floor(random() * 36)];
  const yy = String(Math.floor(random() * 25)).padStart(2, '0');
  const nnnnn = String(Math.floor(random() * 1e5)).padStart(5, '0');
  return cc + reg + yy + nnnnn;
};
const isrcValid = (random, i) => {
  const code = isrcCode(random);
  return i % 100 === 70 ? `${code.slice(0, 2).toLowerCase()}-${code.slice(2, 5).toLowerCase()}-${code.slice(5, 7)}-${code.slice(7)}` : code;
};
const isrcInvalid = (random, k) => {
  const code = isrcCode(random);
  switch (k % 6) {
    case 0: // a letter in the designation (O for 0)
    case 1:
      return `${code.slice(0, 11)}O`;
    case 2: // a character dropped or doubled
      return random() < 0.5 ? code.slice(0, 8) + code.slice(9) : code.slice(0, 9) + code.slice(8);
    case 3: // a digit in the country code
      return `${code[0]}0${code.slice(2)}`;
    case 4: // quoted
      return `"${code}"`;
    default: // other separators
      return `${code.slice(0, 2)}/${code.slice(2, 5)}/${code.slice(5, 7)}/${code.slice(7)}`;
  }
};

// ---- baselines ----

// A node process that reads the file and writes as many bytes as reldist does, checking nothing
// (bench/codes-floor.cjs): what any node validator pays before its first check.
const FLOOR = join(ROOT, 'bench', 'codes-floor.cjs');

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

// CPU time of a child: python's os.wait4 gives the kernel's rusage to the microsecond (the
// scheduler's precise run time, split into user and sys); /usr/bin/time prints it rounded to
// 10 ms, which is 10 ns a line on a million lines, as large as the differences measured here.
const CPU_WRAPPER = join(dir, 'cpu_time.py');
writeFileSync(
  CPU_WRAPPER,
  `import os, sys
out, cmd = sys.argv[1], sys.argv[2:]
pid = os.posix_spawnp(cmd[0], cmd, os.environ)
_, status, ru = os.wait4(pid, 0)
with open(out, 'w') as f:
    f.write('%.6f %.6f %d' % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) & 0xff)
`,
);
const haveWrapper = spawnSync(PYTHON, ['-c', 'import os; os.posix_spawnp; os.wait4; os.waitstatus_to_exitcode'], { stdio: 'ignore' }).status === 0;
const haveTime = haveWrapper || existsSync(TIME);
const rssFile = join(dir, 'rss.txt');
// --pin CPU (default: the last CPU, when taskset exists; --pin none: not pinned): the damage
// section's commands run on one CPU, so that they do not migrate between cores mid-run.
const PIN_OPTION = option('pin', undefined);
const haveTaskset = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
const PIN = PIN_OPTION === 'none' || !haveTaskset ? null : (PIN_OPTION ?? String(availableParallelism() - 1));

/** Runs a command with stdout to /dev/null (or captured): wall seconds, CPU seconds, peak RSS in KiB. */
function measure(cmd, args, { capture = false, pin = null } = {}) {
  const devnull = openSync('/dev/null', 'w');
  if (pin !== null) [cmd, args] = ['taskset', ['-c', pin, cmd, ...args]];
  const [file, argv] = haveWrapper
    ? [PYTHON, [CPU_WRAPPER, rssFile, cmd, ...args]]
    : haveTime
      ? [TIME, ['-f', '%U %S %M', '-o', rssFile, cmd, ...args]]
      : [cmd, args];
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
/** "median (min–max)" of a list of numbers. */
const spread = (xs, d = 2, unit = '') => `${fmt(median(xs), d)}${unit} (${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)})`;
const mb = (kib) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MB`);

/** How many bytes `reldist validate KIND --file F --json` writes: what the floor writes too. */
function outputBytes(kind, file) {
  const r = spawnSync('sh', ['-c', '"$0" "$@" 2>/dev/null | wc -c', process.execPath, BIN, 'validate', kind, '--file', file, '--json'], {
    encoding: 'utf8',
    env: childEnv,
  });
  const bytes = Number(r.stdout.trim());
  if (r.status !== 0 || !Number.isSafeInteger(bytes) || bytes === 0) throw new Error(`cannot count the output of validate ${kind} --file ${file}`);
  return bytes;
}

function reldistRun(bin, kind, file, pin = null) {
  const r = measure(process.execPath, [bin, 'validate', kind, '--file', file, '--json'], { pin });
  if (r.status !== 0 && r.status !== 3) throw new Error(`${bin} validate ${kind} exited ${r.status}: ${r.stderr}`);
  return { ...r, summary: JSON.parse(r.stderr.split('\n')[0]).summary };
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// ---- one kind of line at a time (issue 25) ----
//
// A file of DAMAGE_LINES lines per kind, every line of that kind, for UPCs and ISRCs: valid codes,
// then each kind of damage support sees. Each kind's per-line cost is given as a ratio to valid
// lines, from CPU time (user + sys) and wall time, medians of interleaved rounds; "per line" is
// the run's time less the start-up (`validate KIND CODE`, measured in the same rounds), over the
// lines. The target: no kind above 1.5x. Output is --json to /dev/null; the bytes each kind
// writes per line are printed too, since a damaged line must say more than a valid one.

const DAMAGE_LINES = Number(option('damage-lines', QUICK ? 200_000 : 1_000_000));
const DAMAGE_ROUNDS = Number(option('damage-rounds', QUICK ? 3 : 9));
const DAMAGE_FLOOR = process.argv.includes('--damage-floor');
// --damage-kinds repeated,spaces: only the kinds whose names contain one of these (and valid).
const DAMAGE_NAMES = option('damage-kinds', undefined)?.split(',');
const DAMAGE_ONLY = process.argv.includes('--damage-only');
const DAMAGE_TARGET = 1.5;
const NBSP = '\u00a0';

/** Line generators per kind: (random, i) → line. For repeats, the first 1% of lines are the codes repeated. */
const DAMAGE_KINDS = {
  upc: {
    valid: (r) => upcCode(r),
    'wrong check digit': (r) => {
      const c = upcCode(r);
      return c.slice(0, 11) + ((Number(c[11]) + 1 + Math.floor(r() * 9)) % 10);
    },
    'letters inside': (r) => {
      const c = upcCode(r);
      const at = 1 + Math.floor(r() * 10);
      return c.slice(0, at) + LETTERS[Math.floor(r() * LETTERS.length)] + c.slice(at + 1);
    },
    'punctuation inside': (r) => {
      const c = upcCode(r);
      const at = 1 + Math.floor(r() * 10);
      return c.slice(0, at) + '/*_#;:'[Math.floor(r() * 6)] + c.slice(at);
    },
    // A digit dropped or doubled, never a code that happens to be valid or a lost leading zero.
    'wrong length': (r) => {
      for (;;) {
        const c = upcCode(r);
        const line = r() < 0.5 ? c.slice(0, 5) + c.slice(6) : c.slice(0, 6) + c.slice(5);
        const padded = line.padStart(14, '0');
        if (checkDigit(padded.slice(0, 13)) !== Number(padded[13])) return line;
      }
    },
    repeated: (r, i, earlier) => (i < DAMAGE_LINES / 100 ? upcCode(r) : earlier[Math.floor(r() * earlier.length)]),
    'scientific notation': (r) => {
      const c = upcCode(r, '6');
      return `${c[0]}.${c.slice(1, 6)}E+11`;
    },
    'lost leading zeros': (r) => upcCode(r, '0').slice(1),
    '="…" (and "=""…""")': (r, i) => (i % 4 === 3 ? `"=""${upcCode(r)}"""` : `="${upcCode(r)}"`),
    'odd spaces': (r) => {
      const c = upcCode(r);
      return r() < 0.5 ? `${c}${NBSP}` : `${c.slice(0, 6)}${['\u00a0', '\u202f', '\u2009'][Math.floor(r() * 3)]}${c.slice(6)}`;
    },
    'trailing .0': (r) => `${upcCode(r, '6')}.0`,
  },
  isrc: {
    valid: (r) => isrcCode(r),
    'letters inside': (r) => `${isrcCode(r).slice(0, 11)}O`,
    'punctuation inside': (r) => {
      const c = isrcCode(r);
      return `${c.slice(0, 2)}/${c.slice(2, 5)}/${c.slice(5, 7)}/${c.slice(7)}`;
    },
    'wrong length': (r) => {
      const c = isrcCode(r);
      return r() < 0.5 ? c.slice(0, 8) + c.slice(9) : c.slice(0, 9) + c.slice(8);
    },
    repeated: (r, i, earlier) => (i < DAMAGE_LINES / 100 ? isrcCode(r) : earlier[Math.floor(r() * earlier.length)]),
    '="…" (and "=""…""")': (r, i) => (i % 4 === 3 ? `"=""${isrcCode(r)}"""` : `="${isrcCode(r)}"`),
    'odd spaces': (r) => {
      const c = isrcCode(r);
      return r() < 0.5 ? `${c}${NBSP}` : `${c.slice(0, 5)}${NBSP}${c.slice(5)}`;
    },
  },
};

async function writeKind(path, kind, name) {
  const gen = DAMAGE_KINDS[kind][name];
  const random = rng(DAMAGE_LINES + name.length * 7919 + (kind === 'isrc' ? 1 : 0));
  const earlier = [];
  const out = createWriteStream(path);
  let batch = '';
  for (let i = 0; i < DAMAGE_LINES; i++) {
    const line = gen(random, i, earlier);
    if (name === 'repeated' && i < DAMAGE_LINES / 100) earlier.push(line);
    batch += `${line}\n`;
    if (batch.length > 1 << 16) {
      if (!out.write(batch)) await new Promise((r) => out.once('drain', r));
      batch = '';
    }
  }
  out.write(batch);
  await new Promise((r) => out.end(r));
}

/** The same items in an order drawn from `random` (Fisher-Yates). */
function shuffled(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function damageSection() {
  const ca = process.env.NODE_EXTRA_CA_CERTS ? (NO_EXTRA_CA ? 'set here, not for the measured commands' : 'set') : 'not set';
  const cpuSource = haveWrapper ? 'rusage to the µs (os.wait4)' : haveTime ? '/usr/bin/time, 10 ms steps' : 'none: wall time only';
  console.log(
    `\none kind of line at a time: ${DAMAGE_LINES.toLocaleString('en-US')} lines per kind, ${DAMAGE_ROUNDS} rounds, each round every kind in a new order; ` +
      `validate KIND --file F --json > /dev/null`,
  );
  console.log(
    `  NODE_EXTRA_CA_CERTS ${ca}; pinned: ${PIN === null ? 'no' : `CPU ${PIN} (taskset)`}; CPU time: ${cpuSource}; load average ${load()} at the start`,
  );
  const kinds = ONLY ? [ONLY] : ['upc', 'isrc'];
  const cases = [];
  for (const kind of kinds) {
    for (const name of Object.keys(DAMAGE_KINDS[kind])) {
      if (DAMAGE_NAMES && name !== 'valid' && !DAMAGE_NAMES.some((n) => name.includes(n))) continue;
      const slug = name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
      const file = join(FILES ?? dir, `damage-${kind}-${slug}-${DAMAGE_LINES}.txt`);
      if (!FILES || !existsSync(file)) await writeKind(file, kind, name);
      cases.push({ kind, name, file, bytes: outputBytes(kind, file), runs: [], floor: [] });
    }
  }
  // The start-up (`validate KIND CODE`) is measured twice a round, among the kinds like them.
  const oneCode = { upc: '036000241457', isrc: 'USRC17607839' };
  const starts = { upc: [], isrc: [] };
  const jobs = [
    ...cases.map((c) => () => c.runs.push(reldistRun(BIN, c.kind, c.file, PIN))),
    ...kinds.flatMap((kind) => {
      const start = () => starts[kind].push(measure(process.execPath, [BIN, 'validate', kind, oneCode[kind]], { pin: PIN }));
      return [start, start];
    }),
    // The floor: node reading the file and writing as many bytes, checking nothing.
    ...(DAMAGE_FLOOR ? cases.map((c) => () => c.floor.push(measure(process.execPath, [FLOOR, c.file, String(c.bytes)], { pin: PIN }))) : []),
  ];
  const order = rng(20251127);
  // One warm-up round, not counted: the files into the page cache, the binary's chunks too.
  for (const c of cases) reldistRun(BIN, c.kind, c.file, PIN);
  for (let round = 0; round < DAMAGE_ROUNDS; round++) {
    for (const job of shuffled(jobs, order)) job();
    process.stderr.write(`  kinds: round ${round + 1}/${DAMAGE_ROUNDS} done (load ${load()})\n`);
  }
  const pad = (s, n) => String(s).padEnd(n);
  const cpuOf = (r) => r.cpu ?? r.seconds;
  console.log(
    `  ${pad('kind', 6)}${pad('lines', 24)}${pad('out B/line', 11)}${pad('cpu ns/line', 23)}${pad('cpu vs valid', 15)}${pad('per round: min–max [IQR]', 28)}${pad('wall vs valid', 15)}` +
      `${pad(`target ${DAMAGE_TARGET}x`, 13)}${DAMAGE_FLOOR ? 'beyond the floor vs valid' : ''}`,
  );
  let worst = 0;
  for (const kind of kinds) {
    // The start-up's median over every round: one figure taken out of every run (a per-round
    // start-up would add its own noise to each round's ratio).
    const start = { cpu: median(starts[kind].map(cpuOf)), wall: median(starts[kind].map((s) => s.seconds)) };
    const valid = cases.find((c) => c.kind === kind && c.name === 'valid');
    const perLine = (r, what) => ((what === 'cpu' ? cpuOf(r) - start.cpu : r.seconds - start.wall) / DAMAGE_LINES) * 1e9;
    for (const c of cases.filter((x) => x.kind === kind)) {
      const ns = c.runs.map((r) => perLine(r, 'cpu'));
      // Per round: this kind's run over valid's run of the same round.
      const cpuRatio = c.runs.map((r, i) => perLine(r, 'cpu') / perLine(valid.runs[i], 'cpu'));
      const wallRatio = c.runs.map((r, i) => perLine(r, 'wall') / perLine(valid.runs[i], 'wall'));
      const ratio = median(cpuRatio);
      if (c !== valid) worst = Math.max(worst, ratio);
      const spreadText = `${fmt(Math.min(...cpuRatio))}–${fmt(Math.max(...cpuRatio))} [${fmt(quantile(cpuRatio, 0.25))}–${fmt(quantile(cpuRatio, 0.75))}]`;
      const beyond = (x) => (median(x.runs.map(cpuOf)) - median(x.floor.map(cpuOf))) / DAMAGE_LINES;
      console.log(
        `  ${pad(kind, 6)}${pad(c.name, 24)}${pad(fmt(c.bytes / DAMAGE_LINES, 0), 11)}${pad(`${fmt(median(ns), 0)} (${fmt(Math.min(...ns), 0)}–${fmt(Math.max(...ns), 0)})`, 23)}` +
          `${pad(`${fmt(ratio)}x`, 15)}${pad(c === valid ? '' : spreadText, 28)}${pad(c === valid ? '' : `${fmt(median(wallRatio))}x`, 15)}` +
          `${pad(c === valid ? '' : ratio <= DAMAGE_TARGET ? 'met' : 'NOT met', 13)}${DAMAGE_FLOOR ? `${fmt(beyond(c) / beyond(valid))}x` : ''}`,
      );
    }
    console.log(
      `  ${pad(kind, 6)}${pad('(start-up)', 24)}${pad('', 11)}cpu ${fmt(start.cpu * 1000, 1)} ms (${fmt(Math.min(...starts[kind].map(cpuOf)) * 1000, 1)}–${fmt(Math.max(...starts[kind].map(cpuOf)) * 1000, 1)}), wall ${fmt(start.wall * 1000, 1)} ms, taken out of every run`,
    );
  }
  console.log(
    `  worst damaged kind: ${fmt(worst, 2)}x a valid line's cost (CPU, start-up taken out; median of per-round ratios); target at most ${DAMAGE_TARGET}x: ${worst <= DAMAGE_TARGET ? 'met' : 'NOT met'}`,
  );
  console.log(`  load average ${load()} at the end`);
}

// ---- the run ----

if (DAMAGE_ONLY) {
  for (const bin of [BIN]) {
    if (!existsSync(bin)) {
      console.error(`bench/codes: ${bin} is missing (npm run build, or --bin)`);
      process.exit(2);
    }
  }
  console.log(`node ${process.version}, ${availableParallelism()} cores; binary: ${BIN}`);
  await damageSection();
  process.exit(0);
}

for (const bin of [BIN, COMPARE].filter(Boolean)) {
  if (!existsSync(bin)) {
    console.error(`bench/codes: ${bin} is missing (npm run build, or --bin / --compare)`);
    process.exit(2);
  }
}
const pyVersion = spawnSync(PYTHON, ['-c', 'import stdnum; print(stdnum.__version__)'], { encoding: 'utf8' });
if (pyVersion.status !== 0) {
  console.error('bench/codes: python-stdnum is missing (Debian: apt-get install python3-stdnum); it is the baseline');
  process.exit(2);
}
const caNote = !process.env.NODE_EXTRA_CA_CERTS
  ? 'not set'
  : NO_EXTRA_CA
    ? 'set here, but the measured commands run without it (--no-extra-ca)'
    : 'SET for the measured commands (each node start reads the extra CA file: a fixed cost python-stdnum does not pay; try --no-extra-ca)';
console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${load()} at start; python-stdnum ${pyVersion.stdout.trim()}`);
console.log(`NODE_EXTRA_CA_CERTS: ${caNote}`);
console.log(`binary: ${BIN}${COMPARE ? `; compared with ${COMPARE}` : ''}`);
console.log(
  `${N.toLocaleString('en-US')} codes per file, invalid share ${MIXES.map(mixLabel).join(', ')} (rep: repeated codes, none invalid); ${ROUNDS} interleaved rounds; ` +
    'ratios are per round: median (min–max)',
);

const kinds = ONLY ? [ONLY] : ['upc', 'isrc'];
const gen = { upc: [upcValid, upcInvalid], isrc: [isrcValid, isrcInvalid] };
const cases = [];
for (const mix of MIXES) {
  for (const kind of kinds) {
    const file = join(FILES ?? dir, `${kind}-${mix}-${N}.txt`);
    if (!FILES || !existsSync(file)) await writeLines(file, N, mix, ...gen[kind]);
    cases.push({ mix, kind, file, bytes: outputBytes(kind, file), py: [], ours: [], compare: [], floor: [] });
  }
}

for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    c.py.push(measure(PYTHON, [STDNUM, c.kind, c.file], { capture: true }));
    c.ours.push(reldistRun(BIN, c.kind, c.file));
    if (COMPARE) c.compare.push(reldistRun(COMPARE, c.kind, c.file));
    c.floor.push(measure(process.execPath, [FLOOR, c.file, String(c.bytes)]));
  }
  process.stderr.write(`  round ${round + 1}/${ROUNDS} done (load ${load()})\n`);
}

const verdict = (ok) => (ok ? 'met' : 'NOT met');
const pad = (s, n) => String(s).padEnd(n);
// Two ratios: wall time (what the issue's target is stated in), and CPU time (user + sys of each
// process, from rusage), which a loaded machine disturbs far less: on a busy machine read
// the CPU column, and the CPU column of --compare.
const cpuRatios = (a, b) => (haveTime ? a.map((x, i) => x.cpu / b[i].cpu) : null);
console.log(`\nreldist validate --file F --json vs python-stdnum (ratios, higher is better; target at least ${TARGET}x)`);
console.log(
  `  ${pad('invalid', 8)}${pad('kind', 6)}${pad('wall vs python-stdnum', 24)}${pad('target', 9)}${pad('cpu vs python-stdnum', 24)}${pad('target', 9)}` +
    `${pad('reldist s', 22)}${pad('python s', 10)}${COMPARE ? pad('wall vs compared build', 26) + pad('cpu vs compared build', 26) : ''}counts (valid/invalid/warnings), RSS`,
);
let allMet = true;
let allMetCpu = haveTime;
for (const c of cases) {
  const x = c.py.map((p, i) => p.seconds / c.ours[i].seconds);
  const met = median(x) >= TARGET;
  allMet &&= met;
  const cpu = cpuRatios(c.py, c.ours);
  const metCpu = cpu !== null && median(cpu) >= TARGET;
  allMetCpu &&= metCpu;
  const s = c.ours[0].summary;
  const cmpCpu = COMPARE ? cpuRatios(c.ours, c.compare) : null;
  const cmp = COMPARE
    ? pad(
        spread(
          c.ours.map((o, i) => o.seconds / c.compare[i].seconds),
          2,
          'x',
        ),
        26,
      ) + pad(cmpCpu ? spread(cmpCpu, 2, 'x') : 'n/a', 26)
    : '';
  console.log(
    `  ${pad(mixLabel(c.mix), 8)}${pad(c.kind, 6)}${pad(spread(x, 1, 'x'), 24)}${pad(verdict(met), 9)}${pad(cpu ? spread(cpu, 1, 'x') : 'n/a', 24)}${pad(cpu ? verdict(metCpu) : '', 9)}` +
      `${pad(
        spread(
          c.ours.map((o) => o.seconds),
          3,
        ),
        22,
      )}${pad(fmt(median(c.py.map((p) => p.seconds)), 2), 10)}${cmp}${s.valid}/${s.invalid}/${s.warnings}, ${mb(median(c.ours.map((o) => o.rssKiB ?? 0)))}`,
  );
}
console.log(
  `  every mix: ${verdict(allMet)} (wall), ${haveTime ? verdict(allMetCpu) : 'n/a'} (cpu); NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS && !NO_EXTRA_CA ? 'set' : 'not set'} for the measured commands` +
    `${COMPARE ? '; "vs compared build" below 1 means this build is faster' : ''}`,
);
console.log('  (python-stdnum counts differ where the policies do: reldist refuses EAN-8 and GTIN-14 other than 0…, see docs/codes.md)');

// What the 10x target leaves for the lines: python-stdnum's time over 10, less the floor (a node
// process reading the file and writing reldist's number of output bytes, checking nothing), per
// line; beside it, what reldist spends per line beyond the same floor (its own start-up beyond
// node's included, so a small file weighs it more). Medians over the rounds.
console.log(
  `\nthe ${TARGET}x budget per line (python-stdnum's time / ${TARGET}, less the floor: node reading the file and writing as many bytes, checking nothing)`,
);
console.log(
  `  ${pad('invalid', 8)}${pad('kind', 6)}${pad(`${TARGET}x budget s`, 13)}${pad('floor s', 22)}${pad('output MB', 11)}${pad('left per line', 15)}${pad('reldist per line', 18)}reldist / left`,
);
for (const c of cases) {
  const budget = median(c.py.map((p) => p.seconds)) / TARGET;
  const floor = median(c.floor.map((f) => f.seconds));
  const lines = c.ours[0].summary.checked;
  const left = ((budget - floor) / lines) * 1e9;
  const ours = ((median(c.ours.map((o) => o.seconds)) - floor) / lines) * 1e9;
  console.log(
    `  ${pad(mixLabel(c.mix), 8)}${pad(c.kind, 6)}${pad(fmt(budget, 3), 13)}${pad(
      spread(
        c.floor.map((f) => f.seconds),
        3,
      ),
      22,
    )}${pad(fmt(c.bytes / 1e6, 0), 11)}` +
      `${pad(left > 0 ? `${fmt(left, 0)} ns` : 'none', 15)}${pad(`${fmt(ours, 0)} ns`, 18)}${left > 0 ? `${fmt(ours / left, 2)}x` : 'the floor alone is over the budget'}`,
  );
}

// Start-up: offline validation of one code against printing the version, interleaved.
if (START_ROUNDS > 0) {
  const starts = [
    ['node -e 0', [process.execPath, '-e', '0']],
    ['reldist --version', [process.execPath, BIN, '--version']],
    ['reldist validate upc 036000241457', [process.execPath, BIN, 'validate', 'upc', '036000241457']],
  ];
  const times = starts.map(() => []);
  for (let i = 0; i < 2 + START_ROUNDS; i++) {
    starts.forEach(([, [cmd, ...args]], k) => {
      const r = measure(cmd, args);
      if (i >= 2) times[k].push(r.seconds * 1000); // the first rounds warm the file cache
    });
  }
  console.log(`\nstart-up, ${START_ROUNDS} interleaved rounds, ms as median (min–max):`);
  starts.forEach(([name], k) => console.log(`  ${name.padEnd(36)} ${spread(times[k], 1)}`));
  console.log(
    `  validate upc 036000241457 / --version: ${spread(
      times[2].map((t, i) => t / times[1][i]),
      2,
      'x',
    )} per round`,
  );
}

// A terminal against a pipe: `script` gives the command a pseudo-terminal and copies what it
// writes to our pipe; the piped run goes through `script` too (stdout redirected inside it), so
// both pay the same start. Reported: time to the first byte of output, and total time, as ratios.
const haveScript = spawnSync('script', ['--version']).status === 0;
if (TTY_ROUNDS > 0 && haveScript && kinds.includes('upc')) {
  const file = join(dir, 'tty-upc.txt');
  await writeLines(file, TTY_CODES, '1', upcValid, upcInvalid);
  const quote = (a) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, 'validate', 'upc', '--file', file].map(quote).join(' ');
  const timed = (shell) =>
    new Promise((done, fail) => {
      const t0 = process.hrtime.bigint();
      let first;
      const child = spawn('script', ['-q', '-e', '-c', shell, '/dev/null'], {
        env: { ...childEnv, COLUMNS: '160', LINES: '50' },
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      child.stdin.end();
      child.stdout.on('data', () => {
        first ??= Number(process.hrtime.bigint() - t0) / 1e9;
      });
      child.on('error', fail);
      child.on('close', () => done({ first: first ?? NaN, total: Number(process.hrtime.bigint() - t0) / 1e9 }));
    });
  const tty = [];
  const piped = [];
  for (let i = 0; i < TTY_ROUNDS; i++) {
    tty.push(await timed(`${command} 2>/dev/null`));
    piped.push(await timed(`${command} > /dev/null 2>&1; echo done`));
  }
  console.log(`\nterminal vs piped, ${TTY_CODES.toLocaleString('en-US')} UPCs (1% invalid), ${TTY_ROUNDS} interleaved rounds:`);
  console.log(
    `  terminal: first output after ${spread(
      tty.map((r) => r.first),
      3,
      ' s',
    )}, done after ${spread(
      tty.map((r) => r.total),
      3,
      ' s',
    )}`,
  );
  console.log(
    `  piped:    done after ${spread(
      piped.map((r) => r.total),
      3,
      ' s',
    )}`,
  );
  console.log(
    `  terminal / piped total time: ${spread(
      tty.map((r, i) => r.total / piped[i].total),
      2,
      'x',
    )}; difference ${spread(
      tty.map((r, i) => r.total - piped[i].total),
      3,
      ' s',
    )}`,
  );
} else if (TTY_ROUNDS > 0) {
  console.log('\nterminal vs piped: skipped (needs `script` from util-linux, and UPCs)');
}
if (DAMAGE_ROUNDS > 0) await damageSection();
console.log(`\nload average ${load()} at the end (the machine is shared: ratios, not times, are the result)`);
console.log(`reproduce: npm run build && node bench/codes.mjs${QUICK ? ' --quick' : ''} --codes ${N} --rounds ${ROUNDS}${NO_EXTRA_CA ? ' --no-extra-ca' : ''}`);
