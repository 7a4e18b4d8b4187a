#!/usr/bin/env node
// Runs commands interleaved, round after round, so that every command sees the same machine load,
// and prints each one's median time and its median per-round ratio to the first command. For
// comparing two builds of the CLI side by side (copy dist/ and bin/ of each into two folders).
//   node bench/interleave.mjs [--runs 40] [--warmup 3] [--no-extra-ca] -- "node -e 0" "node old/bin/reldist.js --help" …
// A command is split on spaces (no quoting); stdin, stdout and stderr go to /dev/null; a command
// that exits non-zero stops the run. --no-extra-ca runs them without NODE_EXTRA_CA_CERTS.
import { spawnSync } from 'node:child_process';
import { median } from './lib.mjs';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const opts = sep === -1 ? argv : argv.slice(0, sep);
const commands = sep === -1 ? [] : argv.slice(sep + 1);
const num = (name, dflt) => {
  const i = opts.indexOf(name);
  return i >= 0 && opts[i + 1] ? Number(opts[i + 1]) : dflt;
};
const RUNS = num('--runs', 40);
const WARMUP = num('--warmup', 3);
if (commands.length === 0 || !(RUNS > 0)) {
  console.error('usage: node bench/interleave.mjs [--runs 40] [--warmup 3] [--no-extra-ca] -- "cmd args" "cmd args" …');
  process.exit(2);
}
const env = { ...process.env };
if (opts.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;

const times = commands.map(() => []);
for (let round = 0; round < WARMUP + RUNS; round++) {
  commands.forEach((command, i) => {
    const [file, ...args] = command.split(' ').filter(Boolean);
    const t0 = process.hrtime.bigint();
    const r = spawnSync(file, args, { env, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) {
      console.error(`bench/interleave.mjs: "${command}" exited with ${r.status ?? r.signal} in round ${round}`);
      process.exit(1);
    }
    if (round >= WARMUP) times[i].push(ms);
  });
}

console.log(`${RUNS} interleaved rounds (${WARMUP} warm-up), node ${process.version}, NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}`);
const width = Math.max(...commands.map((c) => c.length));
commands.forEach((command, i) => {
  const perRound = median(times[i].map((t, k) => t / times[0][k]));
  console.log(`  ${command.padEnd(width)}  ${median(times[i]).toFixed(1).padStart(7)} ms   x${perRound.toFixed(2)} of the first, per round`);
});
