#!/usr/bin/env node
// Issue 24, "through a slow link": `reldist track upload` of one WAV against `curl -T` of the same
// file to the same service, both through bench/link-proxy.mjs, a proxy that caps each connection
// at --rate MB/s and holds each piece --delay-ms each way (as a long-distance link does: one
// connection is held back, several together are not). Interleaved trials, the order turning;
// prints the median per-trial throughput ratio track upload / curl (target >= 3 with the client's
// default settings), both throughputs, and the most connections each had open at once.
//   node bench/uploads-link.mjs [--size 256m] [--trials 3] [--rate 20] [--delay-ms 40] [--client-args "…"] [--no-extra-ca] [--service-log FILE] [--bin FILE]
// Full settings (issue 24): --size 1g --trials 5. The curl way is timed from its POST for the
// address to the end of its PUT, both through the link; the CLI's from its start to its exit
// (start-up, the audio check, the release read, the address, the bytes, the track-list write).
// The service's upload URLs name the proxy (serve --public-url), so every byte takes the link.
// --client-args passes extra arguments to every `track upload` (e.g. "--connections 8").
import { join } from 'node:path';
import { fmt, helpAndExit, median, numberFlag, sizeFlag, writeWav } from './lib.mjs';
import { startLinkProxy } from './link-proxy.mjs';
import { banner, bypassed, cliUpload, curlUpload, lastLine, newRelease, startUploadService, uploadBench } from './uploads-common.mjs';

const argv = process.argv.slice(2);
helpAndExit(argv, import.meta.url);
const size = sizeFlag(argv, '--size', '256m');
const trials = numberFlag(argv, '--trials', 3);
const rateMBps = numberFlag(argv, '--rate', 20);
const delayMs = numberFlag(argv, '--delay-ms', 40);
if (!(size >= 1024 * 1024 && size <= 2 * 1024 ** 3) || !(trials >= 1) || !(rateMBps > 0) || !(delayMs >= 0)) {
  console.error('usage: node bench/uploads-link.mjs [--size 256m] [--trials 3] [--rate 20] [--delay-ms 40] [--client-args "…"] (size 1m-2g)');
  process.exit(2);
}
const { work, atExit, finish, fail, bin, env, clientArgs, serviceLog } = uploadBench('uploads-link.mjs', argv);
process.on('SIGINT', () => finish(130));

banner(
  'uploads-link',
  env,
  `${fmt(size / 1024 ** 2, 0)} MiB, ${trials} interleaved trials, link ${rateMBps} MB/s and ${delayMs} ms each way per connection`,
  clientArgs,
);
const file = join(work, 'track.wav');
writeWav(file, size);
const link = await startLinkProxy({ rate: rateMBps * 1e6, delayMs });
atExit(() => link.close());
const service = await startUploadService(bin, join(work, 'data'), env, link.url, serviceLog).catch((e) => fail(e.message));
atExit(() => service.stop());
link.setTarget(service.url);

const ways = {
  async cli() {
    const releaseId = await newRelease(service.api);
    const r = await cliUpload({ bin, env, baseUrl: link.url, token: service.token, releaseId, file, clientArgs });
    if (r.code !== 0) fail(`track upload exited with ${r.code ?? r.signal}: ${lastLine(r.stderr)}`);
    await service.api('DELETE', `/releases/${releaseId}`);
    return r;
  },
  async curl() {
    const releaseId = await newRelease(service.api);
    const r = await curlUpload({ env, baseUrl: link.url, token: service.token, releaseId, file, size }).catch((e) => fail(e.message));
    await service.api('DELETE', `/releases/${releaseId}`);
    return r;
  },
};
const rows = { cli: [], curl: [] };
for (let trial = 0; trial < trials; trial++) {
  const order = trial % 2 === 0 ? ['cli', 'curl'] : ['curl', 'cli'];
  for (const w of order) {
    link.resetStats();
    const r = await ways[w]();
    const around = bypassed(link.stats.up, size, w === 'cli' ? 'track upload' : 'curl');
    if (around) fail(around);
    rows[w].push({ ms: r.ms, maxOpen: link.stats.maxOpen, up: link.stats.up });
  }
  const c = rows.cli[trial];
  const u = rows.curl[trial];
  console.log(
    `  trial ${trial + 1}: track upload ${fmt(c.ms / 1000)} s (at most ${c.maxOpen} open), curl ${fmt(u.ms / 1000)} s (at most ${u.maxOpen}): x${fmt(u.ms / c.ms)}`,
  );
}
const ratios = rows.cli.map((c, i) => rows.curl[i].ms / c.ms);
const mbps = (xs) => size / 1e6 / (median(xs.map((x) => x.ms)) / 1000);
const ratio = median(ratios);
console.log(`  track upload x${fmt(ratio)} of curl -T through the link (target >= 3): ${ratio >= 3 ? 'met' : 'not met'}`);
console.log(
  `  medians: track upload ${fmt(mbps(rows.cli), 1)} MB/s (${fmt(median(rows.cli.map((x) => x.ms)) / 1000)} s, at most ${Math.max(...rows.cli.map((x) => x.maxOpen))} connections at once), curl ${fmt(mbps(rows.curl), 1)} MB/s (${fmt(median(rows.curl.map((x) => x.ms)) / 1000)} s); one connection's cap ${rateMBps} MB/s`,
);
console.log(`  per trial: ${ratios.map((x) => fmt(x)).join(' ')}`);
console.log(
  `  bytes up per upload (all requests): track upload ${fmt(median(rows.cli.map((x) => x.up)) / size, 4)}x the file, curl ${fmt(median(rows.curl.map((x) => x.up)) / size, 4)}x`,
);
finish(0);
