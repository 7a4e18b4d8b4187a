#!/usr/bin/env node
// Review decision → signed webhook delivery at a local receiver, with sandbox auto-review: a
// standing `reldist serve --sandbox --sandbox-auto-review approve` over a temporary folder, an
// endpoint wanting release.approved pointed at a node:http receiver on 127.0.0.1 that verifies
// every delivery with the standardwebhooks library, and N releases (copies of the example
// release, made through the database) submitted one after another. For each, the time from the
// decision (the event's created_at: when the review fell due) to the receiver having the whole
// verified delivery; p50, p99, max. The target: p99 at most 2 s over 200 releases.
//   node bench/webhooks.mjs [--releases 200] [--delay-ms 300] [--json]
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, startServe } from './lib.mjs';

const argv = process.argv.slice(2);
const RELEASES = numberFlag(argv, '--releases', 200);
const DELAY_MS = numberFlag(argv, '--delay-ms', 300);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/reldist.js');
const require = createRequire(join(root, 'package.json'));
const { Webhook } = require('standardwebhooks');
const { work, atExit, finish, fail } = benchRun('webhooks.mjs');

const dataDir = join(work, 'service');
const service = await startServe(bin, dataDir, {
  args: ['--sandbox-auto-review', 'approve', '--sandbox-review-delay', `${DELAY_MS}ms`, '--rate-limit', 'off'],
}).catch((e) => fail(e.message));
atExit(() => service.stop());
const withService = { ...process.env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token };
const api = async (method, path, body) => {
  const r = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: await r.json() };
};

// N complete drafts: the example release once through the CLI, then copies of its rows.
const made = spawnSync(process.execPath, [bin, 'release', 'create', '--file', 'examples/first-release/release.yaml', '--json'], {
  env: withService,
  cwd: root,
  encoding: 'utf8',
});
if (made.status !== 0) fail(`release create --file failed: ${made.stderr}`);
const firstId = JSON.parse(made.stdout).id;
const Database = require('better-sqlite3');
const db = new Database(join(dataDir, 'reldist.sqlite'));
db.pragma('busy_timeout = 10000');
const insertInto = (table) => {
  const cols = db
    .prepare(`PRAGMA table_info(${table})`)
    .all()
    .map((c) => c.name)
    .filter((c) => c !== 'id');
  return db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
};
const release = db.prepare('SELECT * FROM releases WHERE id = ?').get(firstId);
const tracks = db.prepare('SELECT * FROM tracks WHERE release_id = ?').all(firstId);
const ids = [firstId];
db.transaction(() => {
  const [r, t] = [insertInto('releases'), insertInto('tracks')];
  for (let i = 1; i < RELEASES; i++) {
    const id = Number(r.run(release).lastInsertRowid);
    for (const track of tracks) t.run({ ...track, release_id: id });
    ids.push(id);
  }
})();
db.close();

// The receiver: verifies each delivery, notes when it had the whole of it.
const arrived = new Map();
let badSignatures = 0;
let verifier;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    try {
      const payload = verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers);
      if (!arrived.has(payload.data.release_id)) arrived.set(payload.data.release_id, at - Date.parse(payload.data.created_at));
    } catch {
      badSignatures++;
    }
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
atExit(() => receiver.close());
const hook = await api('POST', '/webhooks', { url: `http://127.0.0.1:${receiver.address().port}/hook`, events: ['release.approved'] });
if (hook.status !== 201) fail(`POST /webhooks: ${hook.status} ${JSON.stringify(hook.body)}`);
verifier = new Webhook(hook.body.secret);

// Submitted one after another: each review falls due DELAY_MS after its submit.
const started = Date.now();
for (const id of ids) {
  const r = await api('POST', `/releases/${id}/submit`, {});
  if (r.status !== 200 || r.body.release?.status !== 'in_review') fail(`submit ${id}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}
const deadline = Date.now() + 60_000;
while (arrived.size < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
if (arrived.size < ids.length) fail(`${arrived.size} of ${ids.length} approvals delivered within 60 s`);

const ms = [...arrived.values()].sort((a, b) => a - b);
const pct = (p) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)];
const result = {
  releases: ids.length,
  review_delay_ms: DELAY_MS,
  p50_ms: pct(50),
  p99_ms: pct(99),
  max_ms: ms.at(-1),
  bad_signatures: badSignatures,
  wall_s: Number(((Date.now() - started) / 1000).toFixed(1)),
  node_extra_ca_certs: process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set',
};
if (argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`review decision -> verified webhook delivery at a local receiver, ${result.releases} releases (auto-review ${DELAY_MS} ms after submit)`);
  console.log(
    `  p50 ${result.p50_ms} ms   p99 ${result.p99_ms} ms   max ${result.max_ms} ms   (target p99 <= 2000 ms: ${result.p99_ms <= 2000 ? 'met' : 'NOT met'})`,
  );
  console.log(`  bad signatures ${badSignatures}; NODE_EXTRA_CA_CERTS ${result.node_extra_ca_certs}; ${result.wall_s} s in all`);
}
finish(result.p99_ms <= 2000 && badSignatures === 0 ? 0 : 1);
