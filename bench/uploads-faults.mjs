#!/usr/bin/env node
// Issue 24, "faults and kills": --files WAVs, each uploaded with `reldist track upload REL FILE`
// through the seeded fault proxy of the tests (test/helpers/fault-proxy.ts, bundled here as it
// is: --faults of the requests, 0.3 by default, dropped before the service sees them (a third),
// dropped after its answer (a third), answered 503 (a sixth) or delayed (a sixth)), and killed
// twice per file: the client is SIGKILLed when the bytes sent for that file reach two seeded
// points of it (cumulative over its runs), and the same command is run again after each kill.
// The chain: CLI -> bench/link-proxy.mjs as a byte counter -> fault proxy -> service (whose
// upload URLs name the counter, so the uploads take the same way). A file is complete when a
// run exits 0 and the release has one track whose sha256, as the service gives it and as its
// stored file hashes, is the file's. Prints complete / files and the bytes sent in all (every
// request of every run, as the client sent them) over the files' bytes (targets: all complete,
// at most 1.15x). The baseline: clean uploads of the same file through the same chain with a
// fault proxy that injects nothing, before the first file and after the last (bytes and time).
//   node bench/uploads-faults.mjs [--files 3] [--size 128m] [--faults 0.3] [--seed 24] [--client-args "…"] [--no-extra-ca] [--service-log FILE] [--bin FILE]
// Full settings (issue 24): --files 50 --size 1g. A run the kill does not reach (it ended first)
// is reported; a file gets at most three runs (two with a kill point, one without).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { fmt, helpAndExit, median, mib, mulberry32, numberFlag, sizeFlag, writeWav } from './lib.mjs';
import { startLinkProxy } from './link-proxy.mjs';
import { banner, bypassed, cliUpload, lastLine, newRelease, root, startUploadService, tracksOf, uploadBench } from './uploads-common.mjs';

const argv = process.argv.slice(2);
helpAndExit(argv, import.meta.url);
const files = numberFlag(argv, '--files', 3);
const size = sizeFlag(argv, '--size', '128m');
const faultRate = numberFlag(argv, '--faults', 0.3);
const seed = numberFlag(argv, '--seed', 24);
if (!(files >= 1) || !(size >= 1024 * 1024 && size <= 2 * 1024 ** 3) || !(faultRate >= 0 && faultRate <= 1) || !Number.isInteger(seed)) {
  console.error('usage: node bench/uploads-faults.mjs [--files 3] [--size 128m] [--faults 0.3] [--seed 24] [--client-args "…"] (size 1m-2g)');
  process.exit(2);
}
const { work, atExit, finish, fail, bin, env, clientArgs, serviceLog } = uploadBench('uploads-faults.mjs', argv);
process.on('SIGINT', () => finish(130));

banner('uploads-faults', env, `${files} files of ${mib(size, 0)} MiB, faults ${faultRate} of requests, 2 kills per file, seed ${seed}`, clientArgs);

// The tests' fault proxy, as it is: bundled from its TypeScript (with the contract's routes it reads).
const bundled = join(work, 'fault-proxy.mjs');
await build({
  entryPoints: [join(root, 'test/helpers/fault-proxy.ts')],
  outfile: bundled,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});
const { startFaultProxy } = await import(pathToFileURL(bundled).href);

const file = join(work, 'track.wav');
const sha256 = writeWav(file, size);
const counter = await startLinkProxy();
atExit(() => counter.close());
const dataDir = join(work, 'data');
const service = await startUploadService(bin, dataDir, env, counter.url, serviceLog).catch((e) => fail(e.message));
atExit(() => service.stop());
const share = faultRate / 6;
const faulty = await startFaultProxy({ target: service.url, seed, faults: { dropBefore: 2 * share, dropAfter: 2 * share, unavailable: share, delay: share } });
const clean = await startFaultProxy({ target: service.url, seed, faults: {} });
atExit(() => {
  void faulty.close();
  void clean.close();
});
const upload = (releaseId, onStart) => cliUpload({ bin, env, baseUrl: counter.url, token: service.token, releaseId, file, clientArgs, onStart });

/** sha256 of the file the service stored for an upload key. */
function storedSha256(key) {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(join(dataDir, 'uploads', 'files', key))
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', () => resolve('(no file)'));
  });
}

const baselines = [];
async function baseline() {
  counter.setTarget(clean.url);
  const releaseId = await newRelease(service.api);
  counter.resetStats();
  const r = await upload(releaseId);
  if (r.code !== 0) fail(`a clean track upload exited with ${r.code ?? r.signal}: ${lastLine(r.stderr)}`);
  const around = bypassed(counter.stats.up, size, 'a clean track upload');
  if (around) fail(around);
  baselines.push({ bytes: counter.stats.up, ms: r.ms });
  await service.api('DELETE', `/releases/${releaseId}`);
  counter.setTarget(faulty.url);
}

await baseline();
const random = mulberry32(seed);
const rows = [];
for (let n = 0; n < files; n++) {
  const killPoints = [random(), random()].sort((a, b) => a - b).map((u) => Math.floor((0.05 + 0.9 * u) * size));
  const releaseId = await newRelease(service.api);
  let sent = 0;
  let ms = 0;
  let kills = 0;
  const notes = [];
  let exit;
  for (let run = 0; run < 3; run++) {
    counter.resetStats();
    let child;
    const killAt = killPoints[run];
    if (killAt !== undefined && killAt > sent) counter.cutAt(killAt - sent, () => child?.kill('SIGKILL'));
    else if (killAt !== undefined) notes.push(`kill ${run + 1} passed before its run`);
    const r = await upload(releaseId, (c) => (child = c));
    counter.clearCut();
    sent += counter.stats.up;
    ms += r.ms;
    exit = r.code;
    if (r.signal === 'SIGKILL') kills++;
    // The per-file reason is above the summary line (a JSON error with --json).
    else if (r.code !== 0) notes.push(`run ${run + 1} exited ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    if (r.code === 0) {
      if (run < 2) notes.push(`run ${run + 1} ended before its kill point`);
      break;
    }
  }
  const tracks = await tracksOf(service.api, releaseId);
  const stored = tracks.length === 1 && tracks[0].file ? await storedSha256(tracks[0].file.key) : undefined;
  const complete = exit === 0 && tracks.length === 1 && tracks[0].file?.sha256 === sha256 && stored === sha256;
  rows.push({ sent, ms, kills, complete });
  console.log(
    `  file ${n + 1}: ${complete ? "complete, sha256 the file's" : `NOT COMPLETE (exit ${exit}, ${tracks.length} track(s)${stored === undefined ? '' : `, stored sha256 ${stored === sha256 ? 'matches' : 'differs'}`})`}; ` +
      `${kills} kill(s), sent ${fmt(sent / size)}x its bytes${notes.length ? `; ${notes.join('; ')}` : ''}`,
  );
  await service.api('DELETE', `/releases/${releaseId}`);
}
await baseline();

const done = rows.filter((r) => r.complete).length;
const ratio = rows.reduce((a, r) => a + r.sent, 0) / (files * size);
const cleanBytes = median(baselines.map((b) => b.bytes));
const cleanMs = median(baselines.map((b) => b.ms));
console.log(`  complete with the service's sha256 equal to the file's: ${done} of ${files} (target: all)`);
console.log(`  bytes sent in all: ${fmt(ratio, 3)}x the files' bytes (target <= 1.15): ${ratio <= 1.15 ? 'met' : 'not met'}`);
console.log(
  `  kills made ${rows.reduce((a, r) => a + r.kills, 0)} of ${2 * files}; per file, against a clean upload (${baselines.length} runs: ${fmt(cleanBytes / size, 4)}x the file's bytes, ${fmt(cleanMs / 1000)} s): ` +
    `bytes x${fmt(median(rows.map((r) => r.sent / cleanBytes)))}, time x${fmt(median(rows.map((r) => r.ms / cleanMs)))} (medians)`,
);
const s = faulty.stats;
// The bytes' requests, whatever their routes (a single PUT, parts, their status and completion).
const uploadRoutes = Object.entries(s.byRoute).filter(([k]) => / \/uploads\b/.test(k));
const byDecision = (counts) =>
  Object.entries(counts)
    .map(([d, c]) => `${d} ${c}`)
    .join(', ');
const uploadDecisions = {};
for (const [, r] of uploadRoutes) for (const [d, c] of Object.entries(r.byDecision)) uploadDecisions[d] = (uploadDecisions[d] ?? 0) + c;
console.log(
  `  faults drawn: ${s.requests} requests, ${byDecision(s.byDecision)}; of them to /uploads… (${[...new Set(uploadRoutes.map(([k]) => k.replace(/upl_\w+/, '{key}').replace(/\/\d+(?=\/|$)/g, '/{n}')))].join(', ')}) ` +
    `${uploadRoutes.reduce((a, [, r]) => a + r.requests, 0)}: ${byDecision(uploadDecisions)}`,
);
finish(done === files ? 0 : 1);
