#!/usr/bin/env node
// The floor under bench/codes.mjs: what a node process pays to read a file of codes and write as
// many bytes of output as `reldist validate --json` writes for it, checking nothing. Reads the
// file in 64 KiB pieces (as the CLI does) and writes BYTES bytes to stdout in 1 MiB pieces, each
// filled from a template line by memcpy: no line is split, checked, looked up or formatted. What
// a validator can spend on its lines is the target's time less this one. CommonJS, no imports of
// ours: node's own start (with NODE_EXTRA_CA_CERTS when set) is part of the floor, as it is of
// every node command.
//   node bench/codes-floor.cjs FILE BYTES > /dev/null
const { closeSync, openSync, readSync, writeSync } = require('node:fs');

const [file, bytesArg] = process.argv.slice(2);
const total = Number(bytesArg);
if (!file || !Number.isSafeInteger(total) || total < 0) {
  console.error('usage: node bench/codes-floor.cjs FILE BYTES > /dev/null');
  process.exit(2);
}

const input = Buffer.allocUnsafe(1 << 16);
const fd = openSync(file, 'r');
while (readSync(fd, input, 0, input.length, null) > 0);
closeSync(fd);

const line = Buffer.from(
  '{"input":"USRC17607839","valid":true,"normalized":"USRC17607839","kind":"isrc","display":"US-RC1-76-07839","problems":[],"line":1}\n',
);
const out = Buffer.allocUnsafe(1 << 20);
for (let left = total; left > 0; ) {
  const n = Math.min(left, out.length);
  out.fill(line, 0, n);
  writeSync(1, out, 0, n);
  left -= n;
}
