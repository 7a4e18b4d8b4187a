#!/usr/bin/env node
// Upload benchmark: one WAV of each size, sent round after round, interleaved, three ways:
//   cli      `reldist track upload REL FILE` (asks for the address, streams, attaches the track)
//   curl     the same steps by hand: `curl` POST …/upload-url, then `curl -T FILE` to the address
//   minimal  `curl -T FILE` to bench/upload-minimal.mjs (node:http: hash and store, nothing else)
//   floor    bench/upload-floor.mjs: a minimal node client (address, then read + hash + PUT with
//            node:http, digest compared): the best a node process can do, start included
//   node     `node -e 0`: node's start alone, against what 0.95x of curl allows a client to add
// and prints, per size, the median per-round ratios of throughput: cli / curl (target >= 0.95x)
// and service / minimal (the two curl -T times; target >= 0.8x), with the peak RSS of the CLI, of
// the service and of the minimal server (memory must not grow with the file). Never passes or
// fails on absolute times; fails only when an upload fails.
//   node bench/upload.mjs [--sizes 200,1024] [--rounds 5] [--quick] [--ways curl,minimal] [--client-args "…"] [--no-extra-ca] [--no-sync] [--bin FILE] [--base-bin FILE] [--json] [--help]
// Sizes in MiB; --ways runs only some of the ways (curl,minimal: the service against the minimal
// server alone, the receive side's comparison, in a third of the time); --quick is --sizes 32 --rounds 3. The service is a `reldist serve --sandbox` over a
// temporary data directory, one per size (so its peak RSS is that size's); each round's release
// is deleted after it, with its file. Needs a build (`npm run bench` builds first) and curl.
// --bin FILE runs another build's bin/reldist.js (CLI and service). --base-bin FILE adds, in the
// same rounds, that build's CLI uploading to the same service and curl -T to that build's service,
// and prints this build's ratios to it (before/after a change: a copy of main's bin/ and dist/).
// Before each way, untimed, `sync` writes back what the previous one left dirty (--no-sync: not).
// --client-args "…" passes extra arguments to this build's `track upload` (e.g. "--connections 4").
// Issue 24's loopback figure (track upload >= 0.95x curl -T at 1 GiB, start-up included):
// --sizes 1024 --rounds 5 --ways cli,curl,node (quick: --sizes 256 --rounds 3).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchRun, clientArgsFlag, writeWav } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .slice(1);
  console.log(
    lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith('//')),
      )
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
const value = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const bin = value('--bin') ?? join(root, 'bin', 'reldist.js');
const baseBin = value('--base-bin');
const quick = argv.includes('--quick');
const SIZES = (value('--sizes') ?? (quick ? '32' : '200,1024')).split(',').map(Number);
const ROUNDS = Number(value('--rounds') ?? (quick ? 3 : 5));
if (SIZES.some((s) => !(s >= 1 && s <= 2000)) || !(ROUNDS >= 1)) {
  console.error(
    'usage: node bench/upload.mjs [--sizes 200,1024] [--rounds 5] [--quick] [--ways curl,minimal] [--client-args "…"] [--no-extra-ca] [--no-sync] [--bin FILE] [--base-bin FILE]',
  );
  process.exit(2);
}
if (!existsSync(join(bin, '..', '..', 'dist', 'main.js')) || (baseBin && !existsSync(baseBin))) {
  console.error('bench/upload.mjs: a build is missing; run `npm run build` first');
  process.exit(2);
}
const hasTime = existsSync('/usr/bin/time');
const noSync = argv.includes('--no-sync');
const wanted = value('--ways')?.split(',');
const clientArgs = clientArgsFlag(argv);

const env = { ...process.env, NO_COLOR: '1' };
// The client's upload settings (RELDIST_UPLOAD_PART_SIZE…) pass through, as --client-args do.
for (const k of Object.keys(env)) if (k.startsWith('RELDIST_') && !k.startsWith('RELDIST_UPLOAD_')) delete env[k];
if (argv.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;

const { work, atExit, finish, fail } = benchRun('upload.mjs');
// The CLI's own state (an upload's checkpoints) in the bench's folder, not the user's.
env.RELDIST_CONFIG_DIR = join(work, 'cli-config');
const children = new Set();
atExit(() => {
  for (const c of children) c.kill('SIGTERM');
});
process.on('SIGINT', () => finish(130));

/** Starts a server process that prints one line (JSON or a URL) on stdout first. */
async function startProcess(args, what) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 20 s: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${stderr}`)));
  });
  return {
    line,
    /** CPU time used so far (user + system), ms. */
    cpuMs() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in ticks of 10 ms
    },
    /** Peak resident memory so far, MiB (VmHWM). */
    peakRssMiB() {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    stop() {
      child.kill('SIGTERM');
      children.delete(child);
    },
  };
}

/**
 * Runs a command to its end: wall time (ms), peak RSS (MiB) and CPU time (ms, through
 * /usr/bin/time), and the CPU time meanwhile (ms) of `server`, the one it sends to if any (not
 * the others': an idle one's collector may run then, on what an earlier way left); stdout kept.
 */
function timed(file, args, server) {
  const rssFile = join(work, 'rss');
  const [cmd, cmdArgs] = hasTime ? ['/usr/bin/time', ['-f', '%M %U %S', '-o', rssFile, file, ...args]] : [file, args];
  const server0 = server?.cpuMs() ?? 0;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, cmdArgs, { env, encoding: 'utf8', maxBuffer: 16 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) fail(`${file} ${args.filter((a) => !a.includes('signature=')).join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  const serverCpuMs = (server?.cpuMs() ?? 0) - server0;
  const [maxKiB, user, sys] = hasTime ? readFileSync(rssFile, 'utf8').trim().split('\n').pop().split(' ').map(Number) : [NaN, NaN, NaN];
  return { ms, rss: maxKiB / 1024, cpuMs: (user + sys) * 1000, serverCpuMs, stdout: r.stdout };
}

function curlJson(args) {
  const r = spawnSync('curl', ['-sS', '--fail-with-body', ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) fail(`curl ${args[0]}… failed: ${r.stdout}${r.stderr}`);
  return r.stdout ? JSON.parse(r.stdout) : undefined;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

console.log(
  `upload: sizes ${SIZES.join(', ')} MiB, ${ROUNDS} interleaved rounds each (1 warm-up), client args [${clientArgs.join(' ')}], node ${process.version}, NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}`,
);
const results = [];
for (const mib of SIZES) {
  const file = join(work, `track-${mib}.wav`);
  writeWav(file, mib * 1024 * 1024);
  const dataDir = join(work, `data-${mib}`);
  const service = await startProcess([bin, 'serve', '--sandbox', '--data-dir', dataDir, '--port', '0', '--rate-limit', 'off'], 'reldist serve').catch((e) =>
    fail(e.message),
  );
  const { base_url: base, tokens } = JSON.parse(service.line);
  const baseService = baseBin
    ? await startProcess(
        [baseBin, 'serve', '--sandbox', '--data-dir', join(work, `data-base-${mib}`), '--port', '0', '--rate-limit', 'off'],
        'base reldist serve',
      ).catch((e) => fail(e.message))
    : undefined;
  const baseAt = baseService ? JSON.parse(baseService.line) : undefined;
  const minimalDir = mkdtempSync(join(work, 'minimal-'));
  const minimal = await startProcess([join(root, 'bench', 'upload-minimal.mjs'), minimalDir], 'upload-minimal').catch((e) => fail(e.message));
  const auth = ['-H', `Authorization: Bearer ${tokens.label}`, '-H', 'Content-Type: application/json'];
  const newRelease = (at = base, token = tokens.label) =>
    curlJson([
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Content-Type: application/json',
      '-X',
      'POST',
      `${at}/releases`,
      '-d',
      JSON.stringify({
        type: 'single',
        title: 'Bench',
        artists: [{ name: 'Nina Vale', role: 'primary' }],
        label: 'Northern Lights Records',
        genre: 'Pop',
        language: 'en',
        explicit: 'not_explicit',
      }),
    ]).id;
  const dropRelease = (id, at = base, token = tokens.label) => curlJson(['-H', `Authorization: Bearer ${token}`, '-X', 'DELETE', `${at}/releases/${id}`]);
  /** curl -T to a service: its PUT alone, timed (the address asked for first, untimed). */
  const curlPut = (at, token, server) => {
    const id = newRelease(at, token);
    const ticket = curlJson([
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Content-Type: application/json',
      '-X',
      'POST',
      `${at}/releases/${id}/tracks/upload-url`,
      '-d',
      JSON.stringify({ filename: 'track.wav', content_type: 'audio/wav', size: mib * 1024 * 1024 }),
    ]);
    const put = timed('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: audio/wav', ticket.upload_url], server);
    dropRelease(id, at, token);
    return put;
  };
  const cliEnv = { RELDIST_BASE_URL: base, RELDIST_TOKEN: tokens.label };
  Object.assign(env, cliEnv);

  const ways = {
    cli() {
      const id = newRelease();
      const t = timed(process.execPath, [bin, 'track', 'upload', String(id), file, '--json', ...clientArgs], service);
      dropRelease(id);
      return t;
    },
    curl() {
      const id = newRelease();
      const t0 = process.hrtime.bigint();
      // The same two steps as the CLI's first two (its third, attaching the track, is extra work for it).
      const ticket = curlJson([
        ...auth,
        '-X',
        'POST',
        `${base}/releases/${id}/tracks/upload-url`,
        '-d',
        JSON.stringify({ filename: 'track.wav', content_type: 'audio/wav', size: mib * 1024 * 1024 }),
      ]);
      const put = timed('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: audio/wav', ticket.upload_url], service);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      dropRelease(id);
      return { ...put, ms, putMs: put.ms };
    },
    ...(baseBin
      ? {
          cliBase() {
            const id = newRelease();
            const t = timed(process.execPath, [baseBin, 'track', 'upload', String(id), file, '--json'], service);
            dropRelease(id);
            return t;
          },
          curlBase: () => curlPut(baseAt.base_url, baseAt.tokens.label, baseService),
        }
      : {}),
    floor() {
      const id = newRelease();
      const t = timed(process.execPath, [join(root, 'bench', 'upload-floor.mjs'), String(id), file], service);
      dropRelease(id);
      return t;
    },
    // Node's own start, the part of any node client's time that curl does not have.
    node: () => timed(process.execPath, ['-e', '0']),
    minimal() {
      const t = timed('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: audio/wav', `${minimal.line}/upload`], minimal);
      for (const f of readdirSync(minimalDir)) rmSync(join(minimalDir, f), { force: true });
      return t;
    },
  };
  if (wanted) {
    const unknown = wanted.filter((w) => !(w in ways));
    if (unknown.length > 0) fail(`--ways: no way named ${unknown.join(', ')} (there are ${Object.keys(ways).join(', ')})`);
    for (const w of Object.keys(ways)) if (!wanted.includes(w)) delete ways[w];
  }
  const rows = Object.fromEntries(['cli', 'curl', 'floor', 'minimal', 'node', 'cliBase', 'curlBase', ...Object.keys(ways)].map((w) => [w, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    // The order turns each round, so no way always comes first after a pause.
    const order = Object.keys(ways);
    for (let k = 0; k < round % order.length; k++) order.push(order.shift());
    const got = {};
    for (const w of order) {
      // Each way starts with no dirty pages left by the one before: the service receives three
      // uploads a round (CLI, floor, curl) and the minimal server one, and a writer past the
      // kernel's dirty limits is made to write back itself, on its own CPU and time.
      if (!noSync) spawnSync('sync');
      got[w] = ways[w]();
    }
    if (round > 0) for (const w of order) rows[w].push(got[w]);
  }
  /** Per round, f(that way's, the other's): none when either way was left out (--ways). */
  const perRound = (ours, theirs, f) => (ours.length > 0 && theirs.length > 0 ? ours.map((x, i) => f(x, theirs[i])) : []);
  const cliRounds = perRound(rows.cli, rows.curl, (c, curl) => curl.ms / c.ms);
  const floorRounds = perRound(rows.floor, rows.curl, (f, curl) => curl.ms / f.ms);
  const cliOverFloorRounds = perRound(rows.cli, rows.floor, (c, f) => f.ms / c.ms);
  // CPU per upload, client and service together: what a machine with no core to spare pays.
  const pathCpu = (x) => x.cpuMs + x.serverCpuMs;
  const cliCpuRounds = perRound(rows.cli, rows.curl, (c, curl) => pathCpu(curl) / pathCpu(c));
  const floorCpuRounds = perRound(rows.floor, rows.curl, (f, curl) => pathCpu(curl) / pathCpu(f));
  const serviceCpuRounds = perRound(rows.curl, rows.minimal, (c, m) => m.serverCpuMs / c.serverCpuMs);
  const serviceRounds = perRound(rows.curl, rows.minimal, (c, m) => m.ms / c.putMs);
  const baseRounds = baseBin
    ? { cli: perRound(rows.cli, rows.cliBase, (c, b) => b.ms / c.ms), service: perRound(rows.curl, rows.curlBase, (c, b) => b.ms / c.putMs) }
    : undefined;
  const r = {
    mib,
    ...(baseRounds
      ? {
          cliOverBase: median(baseRounds.cli),
          serviceOverBase: median(baseRounds.service),
          cliBaseRssMiB: Math.max(...rows.cliBase.map((x) => x.rss)),
          serviceBaseRssMiB: baseService.peakRssMiB(),
        }
      : {}),
    cliOverCurl: median(cliRounds),
    cliOverCurlCpu: median(cliCpuRounds),
    floorOverCurl: median(floorRounds),
    floorOverCurlCpu: median(floorCpuRounds),
    cliOverFloor: median(cliOverFloorRounds),
    serviceOverMinimalCpu: median(serviceCpuRounds),
    cpuMs: Object.fromEntries(
      Object.entries(rows).map(([w, xs]) => [w, { client: median(xs.map((x) => x.cpuMs)), server: median(xs.map((x) => x.serverCpuMs)) }]),
    ),
    serviceOverMinimal: median(serviceRounds),
    cliMs: median(rows.cli.map((x) => x.ms)),
    curlMs: median(rows.curl.map((x) => x.ms)),
    servicePutMs: median(rows.curl.map((x) => x.putMs)),
    minimalMs: median(rows.minimal.map((x) => x.ms)),
    nodeStartMs: median(rows.node.map((x) => x.ms)),
    cliRssMiB: Math.max(...rows.cli.map((x) => x.rss)),
    serviceRssMiB: service.peakRssMiB(),
    minimalRssMiB: minimal.peakRssMiB(),
  };
  results.push(r);
  service.stop();
  baseService?.stop();
  minimal.stop();
  rmSync(file, { force: true });
  const ran = (w) => rows[w].length > 0;
  const lines = [
    `track upload x${fmt(r.cliOverCurl)} of curl (target >= 0.95), service x${fmt(r.serviceOverMinimal)} of minimal node:http (target >= 0.8)`,
    `medians: cli ${fmt(r.cliMs, 0)} ms, curl ${fmt(r.curlMs, 0)} ms (its PUT ${fmt(r.servicePutMs, 0)} ms), curl to minimal ${fmt(r.minimalMs, 0)} ms`,
    ran('floor') &&
      `floor (a minimal node client, whole process) x${fmt(r.floorOverCurl)} of curl (CPU x${fmt(r.floorOverCurlCpu)}); track upload x${fmt(r.cliOverFloor)} of the floor`,
    `per round: cli/curl ${cliRounds.map((x) => fmt(x)).join(' ')}; service/minimal ${serviceRounds.map((x) => fmt(x)).join(' ')}`,
    `CPU (client + service, what a machine with no spare core pays): track upload x${fmt(r.cliOverCurlCpu)} of curl, service x${fmt(r.serviceOverMinimalCpu)} of minimal`,
    `CPU ms medians (client/server): ${Object.entries(r.cpuMs)
      .filter(([w]) => ran(w))
      .map(([w, c]) => `${w} ${fmt(c.client, 0)}/${fmt(c.server, 0)}`)
      .join(', ')}`,
    // 0.95x curl's throughput is at most 1/0.95 of its time: what a node client may add to curl's.
    ran('node') && `0.95x allows ${fmt(r.curlMs * (1 / 0.95 - 1), 0)} ms more than curl; \`node -e 0\` alone takes ${fmt(r.nodeStartMs, 0)} ms`,
    `peak RSS: cli ${fmt(r.cliRssMiB, 0)} MiB, service ${fmt(r.serviceRssMiB, 0)} MiB, minimal ${fmt(r.minimalRssMiB, 0)} MiB`,
  ].filter(Boolean);
  console.log(`  ${String(mib).padStart(5)} MiB  ${lines[0]}`);
  for (const line of lines.slice(1)) console.log(`             ${line}`);
  if (baseRounds) {
    console.log(`             against --base-bin: track upload x${fmt(r.cliOverBase)}, service x${fmt(r.serviceOverBase)} (throughput; > 1 is faster)`);
    console.log(
      `             per round: cli/base ${baseRounds.cli.map((x) => fmt(x)).join(' ')}; service/base ${baseRounds.service.map((x) => fmt(x)).join(' ')}; base peak RSS cli ${fmt(r.cliBaseRssMiB, 0)} MiB, service ${fmt(r.serviceBaseRssMiB, 0)} MiB`,
    );
  }
}
if (argv.includes('--json')) console.log(JSON.stringify(results));
finish(0);
