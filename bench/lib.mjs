// What the benches share: a temporary folder and the way out, reading a numeric flag,
// starting a `reldist serve` to measure against, and copying rows of its database to seed it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
