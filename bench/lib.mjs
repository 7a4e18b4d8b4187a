// What the benches share: a temporary folder and the way out, reading flags, starting a
// `reldist serve` to measure against, copying rows of its database to seed it, and for the upload
// benches a WAV of any size, a seeded PRNG and a command run without blocking the event loop.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * A bench's temporary folder (`work`) and its way out: `atExit(f)` registers a clean-up (run in
 * reverse order: what was started last stops first), `finish(code)` runs them, removes the folder
 * and exits, `fail(message)` prints one line naming the bench (`file`, e.g. 'apply.mjs') and
 * finishes with 1.
 */
export function benchRun(file) {
  const work = mkdtempSync(join(tmpdir(), `reldist-bench-${file.replace(/(\.bench)?\.mjs$/, '')}-`));
  const cleanup = [];
  const finish = (code) => {
    for (const f of cleanup.splice(0).reverse()) f();
    rmSync(work, { recursive: true, force: true });
    process.exit(code);
  };
  const fail = (message) => {
    console.error(`bench/${file}: ${message}`);
    finish(1);
  };
  return { work, atExit: (f) => cleanup.push(f), finish, fail };
}

/** The number after `name` in argv, or `dflt` when the flag is absent. */
export function numberFlag(argv, name, dflt) {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? Number(argv[i + 1]) : dflt;
}

/**
 * Starts `reldist serve --sandbox --port 0` (bin: its bin/reldist.js) over `dataDir` and reads its
 * one JSON line. Returns the base URL, the label token, the child, and `close()`, which stops it
 * with SIGTERM (requests in flight finish) and resolves when it has exited.
 */
export async function startServe(bin, dataDir, { env = process.env, args = [] } = {}) {
  const child = spawn(process.execPath, [bin, 'serve', '--sandbox', '--data-dir', dataDir, '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((r) => child.once('exit', r));
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`reldist serve did not start in 20 s: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reldist serve exited with ${code}: ${stderr}`));
    });
  });
  const info = JSON.parse(line);
  return {
    url: info.base_url,
    token: info.tokens.label,
    child,
    stop() {
      child.stdout.destroy();
      child.stderr.destroy();
      child.kill('SIGTERM');
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The service's database in `dataDir` (the project's better-sqlite3, from `root`), and
 * `insertInto(table)`: a statement inserting a row as read (`SELECT *`) without its id, so a bench
 * seeds thousands of releases as copies of one the API made.
 */
export function openServiceDb(root, dataDir) {
  const Database = createRequire(join(root, 'package.json'))('better-sqlite3');
  const db = new Database(join(dataDir, 'reldist.sqlite'));
  db.pragma('busy_timeout = 10000');
  const insertInto = (table) => {
    const columns = db
      .prepare(`PRAGMA table_info(${table})`)
      .all()
      .map((c) => c.name)
      .filter((c) => c !== 'id');
    return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  };
  return { db, insertInto };
}

/** The string after `name` in argv, or `dflt`. */
export function stringFlag(argv, name, dflt) {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
}

const SIZE_SUFFIX = { '': 1024 ** 2, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size flag in bytes: `256m`, `2g`, `512k` (binary units); a bare number is MiB. NaN when unreadable. */
export function sizeFlag(argv, name, dflt) {
  const text = stringFlag(argv, name, dflt);
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(text).trim());
  return m ? Math.floor(Number(m[1]) * SIZE_SUFFIX[m[2].toLowerCase()]) : NaN;
}

/** `--client-args "--connections 8 --part-size 32m"`: extra arguments for the CLI, split on spaces (no quoting). */
export function clientArgsFlag(argv) {
  return stringFlag(argv, '--client-args', '').split(' ').filter(Boolean);
}

/** Prints the script's leading `//` comment (after the shebang) as its help, and exits, when argv has --help. */
export function helpAndExit(argv, scriptUrl) {
  if (!argv.includes('--help')) return;
  const lines = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n').slice(1);
  const end = lines.findIndex((l) => !l.startsWith('//'));
  console.log(
    lines
      .slice(0, end === -1 ? lines.length : end)
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
export const mib = (bytes, d = 1) => fmt(bytes / 1024 ** 2, d);

/** mulberry32, the seeded PRNG of test/helpers/fault-proxy.ts: uniform in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes a valid 16-bit 44.1 kHz stereo WAV of exactly `bytes` bytes (header, then noise: a 4 MiB
 * random block over and over, so nothing on the way compresses it) and returns its sha256.
 */
export function writeWav(path, bytes) {
  const dataBytes = bytes - 44;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(44100, 24);
  h.writeUInt32LE(44100 * 4, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(dataBytes, 40);
  const hash = createHash('sha256').update(h);
  const fd = openSync(path, 'w');
  writeSync(fd, h);
  const block = randomBytes(4 * 1024 * 1024);
  for (let left = dataBytes; left > 0; left -= block.length) {
    const piece = block.subarray(0, Math.min(left, block.length));
    hash.update(piece);
    writeSync(fd, piece);
  }
  closeSync(fd);
  return hash.digest('hex');
}

/**
 * Runs a command to its end without blocking the event loop (a proxy of the bench's own may be
 * serving it): wall time (ms), exit code or signal, stdout and stderr, and the peak RSS (KiB) of
 * the command through /usr/bin/time when present. `onStart(child)` gets the child (to kill it).
 * A child that outlives `timeoutMs` is killed and reported with signal SIGKILL and `timedOut`.
 */
export function runCommand(file, args, { env = process.env, onStart, timeoutMs = 30 * 60_000, rssFile } = {}) {
  const useTime = rssFile !== undefined && existsSync('/usr/bin/time');
  const [cmd, cmdArgs] = useTime ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, file, ...args]] : [file, args];
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, cmdArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      let rssKiB = NaN;
      if (useTime) {
        // /usr/bin/time writes "Command terminated by signal 9" before the figure when its child was killed.
        const last = readFileSync(rssFile, 'utf8').trim().split('\n').pop();
        rssKiB = Number(last);
      }
      resolve({ ms, code, signal, stdout, stderr, rssKiB, timedOut });
    });
    onStart?.(child);
  });
}

/** Peak resident memory of a live process so far (VmHWM), MiB; NaN once it is gone. */
export function peakRssMiB(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** A tiny JSON client for the bench's own set-up steps (untimed), straight to the service. */
export function apiClient(baseUrl, token) {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** The body of a release to upload to (POST /releases). */
export const benchRelease = {
  type: 'single',
  title: 'Bench',
  artists: [{ name: 'Nina Vale', role: 'primary' }],
  label: 'Northern Lights Records',
  genre: 'Pop',
  language: 'en',
  explicit: 'not_explicit',
};
