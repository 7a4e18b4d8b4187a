#!/usr/bin/env node
// Issue 24, "memory flat": the peak resident memory of `reldist track upload` (from /usr/bin/time)
// and of the service receiving it (VmHWM of /proc/<pid>/status, read before it stops) while one
// WAV goes up, against the same service receiving the same file from `curl -T` in one PUT: the
// baseline, taken in the same trials (interleaved, the order turning). Each upload gets a fresh
// `reldist serve` (its peak is that upload's, start-up included). Prints the maxima over the
// trials: the CLI's (target <= 100 MB) and the service's against the baseline (target: at most
// the service's figure today). --base-bin FILE adds, in the same trials, another build's service
// receiving the file from curl (today's service: a copy of main's bin/, dist/ and package.json
// with node_modules linked), which is then the baseline the target is judged against.
//   node bench/uploads-memory.mjs [--size 256m] [--trials 3] [--client-args "…"] [--base-bin FILE] [--no-extra-ca] [--service-log FILE] [--bin FILE]
// Full settings (issue 24): --size 2g --trials 3.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, helpAndExit, mib, numberFlag, peakRssMiB, sizeFlag, stringFlag, writeWav } from './lib.mjs';
import { banner, cliUpload, curlUpload, lastLine, newRelease, startUploadService, uploadBench } from './uploads-common.mjs';

const argv = process.argv.slice(2);
helpAndExit(argv, import.meta.url);
const size = sizeFlag(argv, '--size', '256m');
const trials = numberFlag(argv, '--trials', 3);
const baseBin = stringFlag(argv, '--base-bin');
if (!(size >= 1024 * 1024 && size <= 2 * 1024 ** 3) || !(trials >= 1) || (baseBin && !existsSync(baseBin))) {
  console.error('usage: node bench/uploads-memory.mjs [--size 256m] [--trials 3] [--client-args "…"] [--base-bin FILE] (size 1m-2g)');
  process.exit(2);
}
if (!existsSync('/usr/bin/time')) {
  console.error('bench/uploads-memory.mjs: needs /usr/bin/time (GNU time) for the CLI peak RSS');
  process.exit(2);
}
const CLI_BUDGET_MB = 100;
const { work, atExit, finish, fail, bin, env, clientArgs, serviceLog } = uploadBench('uploads-memory.mjs', argv);
process.on('SIGINT', () => finish(130));

banner('uploads-memory', env, `${mib(size, 0)} MiB, ${trials} interleaved trials${baseBin ? `, base ${baseBin}` : ''}`, clientArgs);
const file = join(work, 'track.wav');
writeWav(file, size);
const rssFile = join(work, 'rss');
let services = 0;
// A bench that fails mid-trial still stops the service it started.
const live = new Set();
atExit(() => {
  for (const s of live) s.stop();
});

/** A fresh service of `serveBin` for one upload; `send(service, releaseId)` uploads; returns both peaks (MiB). */
async function withFreshService(serveBin, send) {
  const service = await startUploadService(serveBin, join(work, `data-${++services}`), env, undefined, serviceLog).catch((e) => fail(e.message));
  live.add(service);
  try {
    const releaseId = await newRelease(service.api);
    const r = await send(service, releaseId);
    const servicePeak = peakRssMiB(service.child.pid);
    return { clientPeak: r.rssKiB / 1024, servicePeak };
  } finally {
    live.delete(service);
    await service.close();
  }
}

const ways = {
  cli: () =>
    withFreshService(bin, async (service, releaseId) => {
      const r = await cliUpload({ bin, env, baseUrl: service.url, token: service.token, releaseId, file, clientArgs, rssFile });
      if (r.code !== 0) fail(`track upload exited with ${r.code ?? r.signal}: ${lastLine(r.stderr)}`);
      return r;
    }),
  curl: () =>
    withFreshService(bin, (service, releaseId) =>
      curlUpload({ env, baseUrl: service.url, token: service.token, releaseId, file, size, rssFile }).catch((e) => fail(e.message)),
    ),
  ...(baseBin
    ? {
        base: () =>
          withFreshService(baseBin, (service, releaseId) =>
            curlUpload({ env, baseUrl: service.url, token: service.token, releaseId, file, size, rssFile }).catch((e) => fail(e.message)),
          ),
      }
    : {}),
};
const rows = Object.fromEntries(Object.keys(ways).map((w) => [w, []]));
for (let trial = 0; trial < trials; trial++) {
  const order = Object.keys(ways);
  for (let k = 0; k < trial % order.length; k++) order.push(order.shift());
  for (const w of order) rows[w].push(await ways[w]());
  console.log(
    `  trial ${trial + 1}: track upload ${fmt(rows.cli[trial].clientPeak, 0)} MiB, its service ${fmt(rows.cli[trial].servicePeak, 0)} MiB; ` +
      `curl -T's service ${fmt(rows.curl[trial].servicePeak, 0)} MiB${baseBin ? `; base service ${fmt(rows.base[trial].servicePeak, 0)} MiB` : ''}`,
  );
}
const max = (xs) => Math.max(...xs);
const cliPeak = max(rows.cli.map((x) => x.clientPeak));
const servicePeak = max(rows.cli.map((x) => x.servicePeak));
const baselinePeak = max((baseBin ? rows.base : rows.curl).map((x) => x.servicePeak));
const cliMB = (cliPeak * 1024 ** 2) / 1e6;
console.log(
  `  track upload peak RSS ${fmt(cliPeak, 0)} MiB (${fmt(cliMB, 0)} MB; target <= ${CLI_BUDGET_MB} MB): ${cliMB <= CLI_BUDGET_MB ? 'met' : 'not met'}`,
);
console.log(
  `  the service's peak RSS while track upload sends: ${fmt(servicePeak, 0)} MiB, x${fmt(servicePeak / baselinePeak)} of the baseline, ` +
    `${baseBin ? 'the base build' : 'this service'} receiving curl -T (one PUT): ${fmt(baselinePeak, 0)} MiB (target <= x1.00; met within x1.05, the trials' spread): ${servicePeak <= baselinePeak * 1.05 ? 'met' : 'not met'}`,
);
console.log(`  curl -T's own peak RSS ${fmt(max(rows.curl.map((x) => x.clientPeak)), 0)} MiB`);
finish(0);
