#!/usr/bin/env node
// Issue 24, "killed, then run again": `reldist track upload REL FILE` SIGKILLed when it has sent a
// random byte of the file (seeded), then the same command again, trial after trial. Every byte
// the client sends goes through bench/link-proxy.mjs as a counter, which kills the client at the
// chosen byte and cuts its connections there, so the service has received at most that much.
// Per trial it prints where the kill came, what the service kept of the upload on its disk once
// the cut settled (its data directory but the database, against before the trial), what the
// second run sent, and the bytes sent again:
//     re-sent = (sent by the killed run + sent by the second run) - sent by a clean upload
// the bytes that crossed twice (a clean upload's own requests and the file cancel out; today
// the second run starts from byte 0, so re-sent is about the kill byte). Then the maximum and
// median over the trials (target: at most 64 MiB, one part, in every one of 20 trials). The
// baseline, a clean upload through the same counter (bytes and time), is taken before the first
// trial, every fifth, and after the last. Each second run must exit 0 and leave exactly one track
// whose sha256 (the service's) is the file's; a trial that does not is reported and fails the bench.
//   node bench/uploads-resume.mjs [--size 256m] [--trials 3] [--seed 24] [--client-args "…"] [--no-extra-ca] [--service-log FILE] [--bin FILE]
// Full settings (issue 24): --size 2g --trials 20. The CLI keeps its state (config, checkpoints)
// in the bench's folder (XDG_* and RELDIST_CONFIG_DIR set there), the same for both runs.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt, helpAndExit, median, mib, mulberry32, numberFlag, sizeFlag, writeWav } from './lib.mjs';
import { startLinkProxy } from './link-proxy.mjs';
import { banner, bypassed, bytesUnder, cliUpload, lastLine, newRelease, startUploadService, tracksOf, uploadBench } from './uploads-common.mjs';

const argv = process.argv.slice(2);
helpAndExit(argv, import.meta.url);
const size = sizeFlag(argv, '--size', '256m');
const trials = numberFlag(argv, '--trials', 3);
const seed = numberFlag(argv, '--seed', 24);
if (!(size >= 1024 * 1024 && size <= 2 * 1024 ** 3) || !(trials >= 1) || !Number.isInteger(seed)) {
  console.error('usage: node bench/uploads-resume.mjs [--size 256m] [--trials 3] [--seed 24] [--client-args "…"] (size 1m-2g)');
  process.exit(2);
}
const PART_BUDGET = 64 * 1024 ** 2;
const { work, atExit, finish, fail, bin, env, clientArgs, serviceLog } = uploadBench('uploads-resume.mjs', argv);
process.on('SIGINT', () => finish(130));

banner('uploads-resume', env, `${mib(size, 0)} MiB, ${trials} trials, seed ${seed}`, clientArgs);
const file = join(work, 'track.wav');
const sha256 = writeWav(file, size);
const counter = await startLinkProxy();
atExit(() => counter.close());
const dataDir = join(work, 'data');
const service = await startUploadService(bin, dataDir, env, counter.url, serviceLog).catch((e) => fail(e.message));
atExit(() => service.stop());
counter.setTarget(service.url);
const upload = (releaseId, onStart) => cliUpload({ bin, env, baseUrl: counter.url, token: service.token, releaseId, file, clientArgs, onStart });

/** Waits until what the service holds on disk stops changing (it may still be writing or removing what it received), at most 5 s. */
async function settledBytes() {
  let last = bytesUnder(dataDir);
  for (let i = 0; i < 25; i++) {
    await sleep(200);
    const now = bytesUnder(dataDir);
    if (now === last && i > 0) return now;
    last = now;
  }
  return last;
}

/** One upload to its end, for the baseline: bytes through the counter and time. */
const baselines = [];
async function baseline() {
  const releaseId = await newRelease(service.api);
  counter.resetStats();
  const r = await upload(releaseId);
  if (r.code !== 0) fail(`a clean track upload exited with ${r.code ?? r.signal}: ${lastLine(r.stderr)}`);
  const around = bypassed(counter.stats.up, size, 'a clean track upload');
  if (around) fail(around);
  baselines.push({ bytes: counter.stats.up, ms: r.ms });
  await service.api('DELETE', `/releases/${releaseId}`);
}

const random = mulberry32(seed);
const rows = [];
let broken = 0;
for (let trial = 0; trial < trials; trial++) {
  if (trial % 5 === 0) await baseline();
  const clean = median(baselines.map((b) => b.bytes));
  // Anywhere in the file but its first and last 2%.
  const killAt = Math.floor((0.02 + 0.96 * random()) * size);
  const releaseId = await newRelease(service.api);
  const before = bytesUnder(dataDir);
  counter.resetStats();
  let child;
  counter.cutAt(killAt, () => child?.kill('SIGKILL'));
  const first = await upload(releaseId, (c) => (child = c));
  counter.clearCut();
  const sent1 = counter.stats.up;
  const killed = first.signal === 'SIGKILL';
  const held = (await settledBytes()) - before;
  counter.resetStats();
  const second = await upload(releaseId);
  const sent2 = counter.stats.up;
  const tracks = await tracksOf(service.api, releaseId);
  const ok = second.code === 0 && tracks.length === 1 && tracks[0].file?.sha256 === sha256;
  if (!ok) broken++;
  const resent = sent1 + sent2 - clean;
  rows.push({ killAt, killed, held, sent1, sent2, resent, ok, ms: first.ms + second.ms });
  console.log(
    `  trial ${trial + 1}: ${killed ? `killed at ${mib(sent1)} MiB` : `not killed (exited ${first.code} before byte ${mib(killAt)} MiB${first.code ? `: ${lastLine(first.stderr)}` : ''})`}, ` +
      `the service kept ${mib(held)} MiB; run again: sent ${mib(sent2)} MiB, exit ${second.code ?? second.signal}; re-sent ${mib(resent)} MiB; ` +
      (ok ? `1 track, sha256 the file's` : `NOT COMPLETE: ${tracks.length} track(s)${second.code ? `, ${lastLine(second.stderr)}` : ''}`),
  );
  await service.api('DELETE', `/releases/${releaseId}`);
}
await baseline();

const clean = median(baselines.map((b) => b.bytes));
const cleanMs = median(baselines.map((b) => b.ms));
const killedRows = rows.filter((r) => r.killed);
const maxResent = Math.max(...killedRows.map((r) => r.resent));
console.log(
  `  re-sent after a kill: max ${mib(maxResent)} MiB, median ${mib(median(killedRows.map((r) => r.resent)))} MiB over ${killedRows.length} killed trials ` +
    `(target <= 64 MiB in each of 20): ${maxResent <= PART_BUDGET && killedRows.length > 0 ? 'met' : 'not met'}`,
);
console.log(
  `  median kill byte ${mib(median(killedRows.map((r) => r.sent1)))} MiB; the service kept ${mib(median(killedRows.map((r) => r.held)))} MiB (median), ${mib(Math.max(...killedRows.map((r) => r.held)))} at most`,
);
console.log(
  `  baseline, a clean upload (${baselines.length} runs): ${fmt(clean / size, 4)}x the file's bytes, ${fmt(cleanMs / 1000)} s; ` +
    `killed + second run: ${fmt(median(rows.map((r) => (r.sent1 + r.sent2) / clean)))}x its bytes, ${fmt(median(rows.map((r) => r.ms / cleanMs)))}x its time (medians)`,
);
console.log(`  complete after the second run: ${rows.length - broken} of ${rows.length}`);
finish(broken > 0 ? 1 : 0);
