#!/usr/bin/env node
// Start-up benchmark: runs, interleaved in one session, `reldist --version`, `reldist --help`,
// `reldist validate upc 036000241457` (offline) and `reldist release list --json` (against a
// standing `reldist serve` over a temp data dir), next to `node -e 0` and a minimal node:http
// script doing the same GET. Prints median times and the ratios that matter; never passes or
// fails on absolute times.
//   node bench/startup.mjs [--runs 30] [--warmup 3] [--json] [--no-extra-ca]
// --no-extra-ca runs every measured command without NODE_EXTRA_CA_CERTS: on Node 20 that variable
// makes each node start read and parse the CA file (40-50 ms on the development machine), a fixed
// cost that raises every case alike and so flatters the ratios.
// Needs a build (`npm run build`); `npm run bench` builds first.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, startServe, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => numberFlag(argv, name, dflt);
const RUNS = opt('--runs', 30);
const WARMUP = opt('--warmup', 3);
const asJson = argv.includes('--json');
const noExtraCa = argv.includes('--no-extra-ca');

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/startup.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}

const { work, atExit, finish, fail } = benchRun('startup.mjs');

async function startService() {
  const service = await startServe(bin, join(work, 'data'));
  atExit(() => service.stop());
  return service;
}

const service = await startService().catch((err) => fail(err.message));
const env = { ...process.env, RELDIST_BASE_URL: service.url, RELDIST_TOKEN: service.token, NO_COLOR: '1' };
if (noExtraCa) delete env.NODE_EXTRA_CA_CERTS;

// The floor for a one-shot request: node:http, nothing else.
const httpScript = join(work, 'http-get.mjs');
writeFileSync(
  httpScript,
  `import http from 'node:http';
http.get(process.env.RELDIST_BASE_URL + '/releases', { headers: { authorization: 'Bearer ' + process.env.RELDIST_TOKEN, accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(body + '\\n'));
});
`,
);

// `release list` is written by another part of the project; until it exists, the raw request.
const probe = spawnSync(process.execPath, [bin, 'release', 'list', '--help'], { env, encoding: 'utf8' });
const hasReleaseList = probe.status === 0 && probe.stdout.includes('reldist release list');
const listArgs = hasReleaseList ? ['release', 'list', '--json'] : ['api', 'GET', '/releases'];

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'reldist --version', args: [bin, '--version'] },
  { name: 'reldist --help', args: [bin, '--help'] },
  { name: 'reldist validate upc 036000241457', args: [bin, 'validate', 'upc', '036000241457'] },
  { name: 'node:http GET', args: [httpScript] },
  { name: `reldist ${listArgs.join(' ')}`, args: [bin, ...listArgs] },
];

for (const c of cases) {
  const r = spawnSync(process.execPath, c.args, { env, encoding: 'utf8' });
  if (r.status !== 0) fail(`"${c.name}" failed (exit ${r.status}): ${r.stderr.trim().split('\n')[0]}`);
}

const times = new Map(cases.map((c) => [c.name, []]));
for (let round = 0; round < WARMUP + RUNS; round++) {
  // Interleaved: every case sees the same machine load, round after round.
  for (const c of cases) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.args, { env, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) fail(`"${c.name}" failed in round ${round} (exit ${r.status})`);
    if (round >= WARMUP) times.get(c.name).push(ms);
  }
}

const med = Object.fromEntries([...times].map(([k, v]) => [k, median(v)]));
const listName = cases.at(-1).name;
const ratios = [
  { what: 'reldist --version / node -e 0', ratio: med['reldist --version'] / med['node -e 0'], target: 1.5 },
  { what: 'reldist --help / node -e 0', ratio: med['reldist --help'] / med['node -e 0'], target: 1.5 },
  // The issue asks that offline validation start "as fast as `reldist --version`": no numeric target.
  { what: 'reldist validate upc X / reldist --version', ratio: med['reldist validate upc 036000241457'] / med['reldist --version'] },
  { what: `${listName} / node:http GET`, ratio: med[listName] / med['node:http GET'], target: 2 },
];
const caCerts = Boolean(env.NODE_EXTRA_CA_CERTS);

if (asJson) {
  console.log(JSON.stringify({ runs: RUNS, node: process.version, node_extra_ca_certs: caCerts, median_ms: med, ratios }, null, 2));
} else {
  console.log(
    `start-up (${RUNS} interleaved runs, ${WARMUP} warm-up; node ${process.version}; NODE_EXTRA_CA_CERTS ${caCerts ? 'set' : 'not set'} for the measured commands)`,
  );
  for (const [k, v] of Object.entries(med)) console.log(`  ${k.padEnd(38)} ${v.toFixed(1).padStart(7)} ms (median)`);
  for (const r of ratios) {
    const verdict = r.target === undefined ? '' : `  (target <= ${r.target}x: ${r.ratio <= r.target ? 'met' : 'NOT met'})`;
    console.log(`  ${r.what.padEnd(48)} ${r.ratio.toFixed(2)}x${verdict}`);
  }
  if (caCerts) console.log('  note: NODE_EXTRA_CA_CERTS makes every node start read a CA bundle; it raises the floor for all cases alike.');
}
finish(0);
