#!/usr/bin/env node
// The floor of `release export` on this disk: creating the files alone. Reads a list of sizes
// (bytes, one a line) and creates that many files of those sizes in DIR (which must not exist),
// each opened with `wx`, written once and closed, 16 at a time, as the export writes them. Run
// by bench/export.mjs as its own process, so it pays a node start as the CLI does.
//   node bench/export-floor.mjs SIZES_FILE DIR
import { mkdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [sizesFile, dir] = process.argv.slice(2);
if (!sizesFile || !dir) {
  console.error('usage: node bench/export-floor.mjs SIZES_FILE DIR');
  process.exit(2);
}
const sizes = readFileSync(sizesFile, 'utf8').split('\n').filter(Boolean).map(Number);
mkdirSync(dir);
const IN_FLIGHT = 16;
let next = 0;
async function worker() {
  while (next < sizes.length) {
    const i = next++;
    await writeFile(join(dir, `F-${String(i).padStart(6, '0')}.yaml`), Buffer.alloc(sizes[i], 0x61), { flag: 'wx' });
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
