#!/usr/bin/env node
// validate --remote benchmark: `reldist validate upc --file F --remote` on N codes (10% invalid)
// against a local `reldist serve`, and the same command offline, interleaved round after round.
// Target (issue 11): remote <= 2x offline + one round trip per chunk (chunks of the contract's
// maximum). The round trip is measured in the same run: the median of small batch requests (one
// code) made from here over a kept-alive connection. Prints medians, the median per-round ratio
// remote / offline and the target; never passes or fails on absolute times, and fails only when a
// run fails.
//   node bench/validate-remote.bench.mjs [--codes 10000] [--rounds 7] [--no-extra-ca]
// Needs a build; `npm run bench` builds first.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, startServe, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => numberFlag(argv, name, dflt);
const CODES = opt('--codes', 10_000);
const ROUNDS = opt('--rounds', 7);
const WARMUP = 1;
const RTT_SAMPLES = 30;
if (!(CODES >= 1) || !(ROUNDS >= 1)) {
  console.error('usage: node bench/validate-remote.bench.mjs [--codes 10000] [--rounds 7] [--no-extra-ca]');
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/validate-remote.bench.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}
// The documented maximum per request, as the contract publishes it.
const validateBatchMax = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')).components.schemas.ValidateCodesRequest.properties.codes.maxItems;

const env = { ...process.env };
if (argv.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;

const { work, atExit, finish, fail } = benchRun('validate-remote.bench.mjs');
let service;
atExit(() => service?.stop());

/** A UPC-A from 11 digits: the digits and their check digit. */
function upc(body) {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body[i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}
const lines = [];
for (let i = 0; i < CODES; i++) {
  const code = upc(String(30_000_000_000 + i * 7919).slice(-11));
  // Every tenth code with a wrong check digit.
  lines.push(i % 10 === 5 ? code.slice(0, 11) + String((Number(code[11]) + 1) % 10) : code);
}
const file = join(work, 'codes.txt');
writeFileSync(file, `${lines.join('\n')}\n`);

/** `reldist serve --sandbox` over a temporary data directory. */
async function startService() {
  service = await startServe(bin, join(work, 'data'), { env });
  return service;
}

/** One small batch request (one code) over a kept-alive connection: its time in ms. */
function roundTrip(target, agent, n) {
  const body = JSON.stringify({ codes: [{ kind: 'upc', code: lines[n % lines.length] }] });
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      `${target.url}/releases/validate`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`round trip: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function timeRun(args, target) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], {
    env: { ...env, RELDIST_BASE_URL: target.url, RELDIST_TOKEN: target.token, RELDIST_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 20,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  // Exit 3: some codes are invalid, as they are meant to be.
  if (r.status !== 0 && r.status !== 3) fail(`reldist ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  if (/Warning/.test(String(r.stderr))) fail(`reldist ${args.join(' ')} printed a warning: ${r.stderr}`);
  return ms;
}

try {
  const target = await startService();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const offlineArgs = ['validate', 'upc', '--file', file];
  const remoteArgs = [...offlineArgs, '--remote'];
  const offline = [];
  const remote = [];
  const rtts = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const a = timeRun(offlineArgs, target);
    const b = timeRun(remoteArgs, target);
    // A few round trips per round, so that they see the same load as the runs.
    for (let k = 0; k < Math.ceil(RTT_SAMPLES / ROUNDS); k++) {
      const ms = await roundTrip(target, agent, round * 31 + k);
      if (round >= WARMUP) rtts.push(ms);
    }
    if (round >= WARMUP) {
      offline.push(a);
      remote.push(b);
    }
  }
  agent.destroy();
  const chunks = Math.ceil(CODES / validateBatchMax);
  const off = median(offline);
  const rem = median(remote);
  const rtt = median(rtts);
  const ratio = median(remote.map((t, i) => t / offline[i]));
  const goal = 2 * off + chunks * rtt;
  console.log(
    `${CODES} UPCs (10% invalid), ${ROUNDS} interleaved rounds (${WARMUP} warm-up), node ${process.version}, NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}`,
  );
  console.log(`  offline                      ${off.toFixed(0).padStart(6)} ms`);
  console.log(`  --remote (${chunks} chunks of ${validateBatchMax})     ${rem.toFixed(0).padStart(6)} ms   x${ratio.toFixed(2)} of offline, per round`);
  console.log(`  round trip (batch of 1)      ${rtt.toFixed(1).padStart(6)} ms`);
  console.log(
    `  target: 2 x offline + ${chunks} round trips = ${goal.toFixed(0)} ms: ${rem <= goal ? 'met' : 'NOT met'} (remote / target ${(rem / goal).toFixed(2)})`,
  );
  finish(0);
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
