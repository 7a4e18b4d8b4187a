#!/usr/bin/env node
// `reldist release import` of a template of --releases releases (default 1,000) with --tracks
// tracks each (default 10: 10,000 rows), as .xlsx and as .csv, each against a baseline in the same
// rounds, interleaved: a process that only reads the same file with the same library (SheetJS for
// the workbook, csv-parse for the CSV) and does nothing with its rows. Target: each import at most
// 5 s; the ratio says what the conversion itself costs over reading. The template: the generic
// one-row-per-track columns (docs/commands.md, "Import"), every code valid, participants on every row.
//   node bench/import.mjs [--releases 1000] [--tracks 10] [--rounds 5] [--json]
// Needs a build (`npm run build`). Never passes or fails on times.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRun, numberFlag, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'reldist.js');
const require = createRequire(join(root, 'package.json'));
const argv = process.argv.slice(2);
const RELEASES = numberFlag(argv, '--releases', 1_000);
const TRACKS = numberFlag(argv, '--tracks', 10);
const ROUNDS = numberFlag(argv, '--rounds', 5);
const TARGET_MS = 5_000;

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('bench/import.mjs: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}
const { work, finish, fail } = benchRun('import.mjs');
const env = { ...process.env, NO_COLOR: '1' };
for (const k of Object.keys(env)) if (/^RELDIST_/.test(k)) delete env[k];

/** A valid UPC-A from 11 digits. */
function upc(n) {
  const d = String(n).padStart(11, '0');
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(d[i]) * (i % 2 === 0 ? 3 : 1);
  return d + ((10 - (sum % 10)) % 10);
}
const isrc = (n) => `GBNLR26${String(n).padStart(5, '0')}`;

const HEADER = [
  'Release title',
  'Release version',
  'Release artists',
  'Label',
  'UPC',
  'Catalogue number',
  'Release date',
  'Original release date',
  'Genre',
  'Language',
  'Production year',
  'P line',
  'C line',
  'Price tier',
  'Track number',
  'Track title',
  'Track version',
  'ISRC',
  'Participants',
  'Explicit',
  'Audio language',
];
const rows = [HEADER];
for (let r = 0; r < RELEASES; r++)
  for (let t = 1; t <= TRACKS; t++)
    rows.push([
      `Release ${r}`,
      r % 3 === 0 ? 'Deluxe Edition' : '',
      'Nina Vale',
      'Northern Lights Records',
      upc(10_000_000 + r),
      `BEN-${String(r).padStart(5, '0')}`,
      '2030-03-06',
      '',
      'Electronic',
      'en',
      '2026',
      '2026 Northern Lights Records',
      '2026 Northern Lights Records',
      'front',
      String(t),
      `Track ${t} of ${r}`,
      '',
      isrc(r * TRACKS + t),
      'primary:Nina Vale;composer:Nina Vale;producer:Ava Stone',
      t % 4 === 0 ? 'yes' : 'no',
      'en',
    ]);

const XLSX = require('@e965/xlsx');
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Tracks');
const xlsx = join(work, 'template.xlsx');
writeFileSync(xlsx, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
const csv = join(work, 'template.csv');
writeFileSync(csv, `${rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n')}\n`);

// The baselines: the same library reading the same file, as the command does, in a process of its own.
const READ_XLSX = `require(${JSON.stringify(require.resolve('@e965/xlsx'))}).read(require('fs').readFileSync(process.argv[1]), { type: 'buffer', dense: true, cellDates: false, cellText: false, cellHTML: false, cellFormula: false, cellStyles: false })`;
const READ_CSV = `require(${JSON.stringify(require.resolve('csv-parse/sync'))}).parse(require('fs').readFileSync(process.argv[1], 'utf8'), { relax_column_count: true, relax_quotes: true, record_delimiter: ['\\r\\n', '\\n', '\\r'] })`;

function timed(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) fail(`${args.slice(0, 3).join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.slice(0, 2000)}`);
  return ms;
}

const times = { xlsx: [], xlsxBase: [], csv: [], csvBase: [] };
const ratios = { xlsx: [], csv: [] };
for (let round = -1; round < ROUNDS; round++) {
  for (const [kind, file, base] of [
    ['xlsx', xlsx, READ_XLSX],
    ['csv', csv, READ_CSV],
  ]) {
    const dir = join(work, `out-${kind}-${round}`);
    const b = timed(['-e', base, file]);
    const i = timed([bin, 'release', 'import', file, '--dir', dir]);
    const files = readdirSync(dir).length;
    if (files !== RELEASES) fail(`import of the ${kind} wrote ${files} files for ${RELEASES} releases`);
    rmSync(dir, { recursive: true, force: true });
    if (round < 0) continue;
    times[kind].push(i);
    times[`${kind}Base`].push(b);
    ratios[kind].push(i / b);
  }
}

const result = {
  releases: RELEASES,
  rows: RELEASES * TRACKS,
  rounds: ROUNDS,
  xlsx_import_ms: Math.round(median(times.xlsx)),
  xlsx_read_only_ms: Math.round(median(times.xlsxBase)),
  xlsx_ratio_median: Number(median(ratios.xlsx).toFixed(2)),
  csv_import_ms: Math.round(median(times.csv)),
  csv_read_only_ms: Math.round(median(times.csvBase)),
  csv_ratio_median: Number(median(ratios.csv).toFixed(2)),
  target_ms: TARGET_MS,
};
if (argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`release import, ${RELEASES} releases, ${result.rows} rows, ${ROUNDS} interleaved rounds (medians; target <= ${TARGET_MS} ms each)`);
  console.log(`  .xlsx  import ${result.xlsx_import_ms} ms   SheetJS reading it alone ${result.xlsx_read_only_ms} ms   ratio ${result.xlsx_ratio_median}x`);
  console.log(`  .csv   import ${result.csv_import_ms} ms   csv-parse reading it alone ${result.csv_read_only_ms} ms   ratio ${result.csv_ratio_median}x`);
}
finish(0);
