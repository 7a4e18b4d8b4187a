// `reldist release import` of the distributors' templates, built here with the workbook library
// from their published column sets, with the damage spreadsheets really do: codes held as numbers
// (a lost leading zero, 3.6E+11), dates as day numbers, merged header rows above the header,
// trailing empty rows, a second sheet of contributors (Believe), data from line 8 (Sonosuite),
// `role:Name` participants and audio by address (UMW). Then `release apply --plan` takes every
// file written, an imported release with its audio in --audio-dir is applied and submitted, one
// without audio is created and its submit blocked by it, and audio by address is downloaded once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { useCli } from './cli-harness.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();
let work: string;
let audioDir: string;
let audioServer: Server;
let audioBase: string;
let audioRequests = 0;
const wav = makeWav({ seconds: 30 });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-import-t-'));
  audioDir = join(work, 'masters');
  await mkdir(join(audioDir, 'sub'), { recursive: true });
  await writeFile(join(audioDir, 'bl-01.wav'), wav);
  await writeFile(join(audioDir, 'sub', 'BL-02.wav'), makeWav({ seconds: 31 }));
  audioServer = createServer((req, res) => {
    audioRequests++;
    if (req.url?.startsWith('/audio/take.wav')) {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
      res.end(wav);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => audioServer.listen(0, '127.0.0.1', r));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => audioServer.close(r));
  await rm(work, { recursive: true, force: true });
});

function workbook(sheets: { name: string; rows: unknown[][]; merges?: string[] }[], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = XLSX.utils.book_new();
  for (const s of sheets) {
    const ws = XLSX.utils.aoa_to_sheet(s.rows);
    if (s.merges) ws['!merges'] = s.merges.map((m) => XLSX.utils.decode_range(m));
    XLSX.utils.book_append_sheet(book, ws, s.name);
  }
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

/** Excel's day number of a date (1900 system). */
const serial = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25_569;

const BELIEVE_HEADER = [
  'Release Title',
  'Release Main Artist',
  'Label Name',
  'UPC/EAN',
  'Catalog Number',
  'Digital Release Date (MM/DD/YYYY)',
  'Original Release Date (MM/DD/YYYY)',
  'Main Genre',
  'Metadata Language',
  'Production Year',
  'P-Line',
  'C-Line',
  'Price Tier',
  'Release Format',
  'Track Number',
  'Track Title',
  'Track Version',
  'ISRC',
  'Track Featuring Artist(s)',
  'Parental Advisory',
  'Lyrics Language',
  'Audio File Name',
  'Territories',
];

function believeRow(o: { title: string; upc: unknown; cat: string; n: number; track: string; isrc: string; file: string; date?: unknown }): unknown[] {
  return [
    o.title,
    'Nina Vale',
    'Northern Lights Records',
    o.upc,
    o.cat,
    o.date ?? '03/04/2030',
    serial('2001-02-03'),
    'Electronic',
    'English',
    2026,
    'Northern Lights Records',
    '© Northern Lights Records',
    'Front',
    'EP',
    o.n,
    o.track,
    '',
    o.isrc,
    '',
    'No',
    'Instrumental',
    o.file,
    'WW',
  ];
}

describe('release import: templates', () => {
  it("Believe's .xls: merged title rows, codes and dates as numbers, trailing empty rows, the contributor sheet", async () => {
    const tracks = [
      ['Believe metadata template: audio releases'],
      ['Release information', '', '', '', '', '', '', '', '', '', '', '', '', '', 'Track information'],
      BELIEVE_HEADER,
      // Track 2 before track 1; the UPC held as a number (its leading zero lost).
      believeRow({ title: 'Blue Hour', upc: 36000241457, cat: 'BLV-001', n: 2, track: 'Dusk', isrc: 'GBNLR2600202', file: 'BL-02.wav' }),
      believeRow({
        title: 'Blue Hour',
        upc: 36000241457,
        cat: 'BLV-001',
        n: 1,
        track: 'Dawn',
        isrc: 'GBNLR2600201',
        file: 'bl-01.wav',
        date: serial('2030-03-04'),
      }),
      // 3.6E+11 in the cell: the digits were lost before the sheet got it.
      believeRow({ title: 'Lost Digits', upc: 3.6e11, cat: 'BLV-002', n: 1, track: 'Gone', isrc: 'GBNLR2600203', file: '' }),
      believeRow({ title: 'Third', upc: '', cat: 'BLV-003', n: 1, track: 'Only', isrc: 'GBNLR2600204', file: '' }),
      ['', '', '', ''],
      ['', '', '', ''],
    ];
    const contributors = [
      ['Catalog Number', 'Track Position(s)', 'Contributor Name', 'Role'],
      ['BLV-001', 'all', 'Nina Vale', 'Composer'],
      ['BLV-001', '2', 'Ava Stone', 'Producer'],
      ['BLV-001', '1', 'Lena Voss', 'Featuring'],
      ['BLV-003', '5', 'Nina Vale', 'Composer'],
    ];
    const sheet = join(work, 'believe.xls');
    await writeFile(
      sheet,
      workbook(
        [
          { name: 'Tracks', rows: tracks, merges: ['A1:H1', 'A2:N2', 'O2:W2'] },
          { name: 'Contributors', rows: contributors },
          { name: 'Genres', rows: [['Electronic'], ['Pop']] },
        ],
        'biff8',
      ),
    );
    const dir = join(work, 'out-believe');
    const r = await cli.run(['release', 'import', sheet, '--dir', dir, '--audio-dir', audioDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `read ${sheet}: Believe XLS template, sheet Tracks, header on line 3, 4 rows (and 4 contributor rows on sheet Contributors), 3 releases`,
    );
    expect(r.stderr).toContain('columns not mapped: Territories (column W: no field of a release file)');
    expect(r.stderr).toContain('sheets not read: Genres');
    expect(r.stderr).toContain(`error: ${sheet}:Tracks:6: UPC/EAN (column D): scientific_notation: UPC "3.6E+11": 3.6E+11 is scientific notation`);
    expect(r.stderr).toContain(`error: ${sheet}:Contributors:5: Track Position(s) (column B): no_track: the release BLV-003 has 1 track: no track 5`);
    expect(r.stderr).toContain(`warning: ${sheet}:Tracks:4: UPC/EAN (column D): lost_leading_zero`);
    expect(await readdir(dir)).toEqual(['BLV-001.yaml']);

    const a = parse(await readFile(join(dir, 'BLV-001.yaml'), 'utf8'));
    expect(a).toMatchObject({
      type: 'ep',
      title: 'Blue Hour',
      upc: '036000241457',
      language: 'en',
      // No year in the P line: the production year gives it.
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
      original_release_date: '2001-02-03',
      explicit: 'not_explicit',
      // MM/DD/YYYY as Believe writes it; the day number of the other row says the same day.
      delivery: { release_date: '2030-03-04', price_tier: 'front' },
    });
    expect(a.tracks).toEqual([
      {
        file: '../masters/bl-01.wav',
        title: 'Dawn',
        artists: [
          { name: 'Nina Vale', role: 'primary' },
          { name: 'Lena Voss', role: 'featuring' },
        ],
        contributors: [{ name: 'Nina Vale', role: 'composer' }],
        isrc: 'GBNLR2600201',
        audio_language: 'instrumental',
      },
      {
        file: '../masters/sub/BL-02.wav',
        title: 'Dusk',
        contributors: [
          { name: 'Nina Vale', role: 'composer' },
          { name: 'Ava Stone', role: 'producer' },
        ],
        isrc: 'GBNLR2600202',
        audio_language: 'instrumental',
      },
    ]);

    // Applied and submitted end to end: the audio found in --audio-dir uploaded, the submit passing.
    const applied = await cli.run(['release', 'apply', dir, '--submit', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(jsonLines(applied.stdout).map((l) => [l.catalog_number, l.outcome, l.status])).toEqual([['BLV-001', 'submitted', 'in_review']]);
  });

  it('Sonosuite CSV: data from line 8, DD/MM/YYYY, ="…" codes, holder and year columns, audio by address downloaded once by apply', async () => {
    const header =
      'Release Name,Release Primary Artist(s),Label,Release UPC,Release Catalog Number,Digital Release Date (DD/MM/YYYY),Primary Genre,Release Language,(P) Holder,(P) Year,(C) Holder,(C) Year,Track Sequence,Track Name,Track ISRC,Track Composer(s),Track Explicit Content,Track Audio Language,Track Audio File';
    const sheet = join(work, 'sonosuite.csv');
    await writeFile(
      sheet,
      `Sonosuite bulk upload template
"Fill one row per track, repeating the release's columns"
Dates: DD/MM/YYYY
Codes: format the columns as text
,
,
${header}
Red Line,Ava Stone,Northern Lights Records,"=""012345678905""",SON-001,06/03/2030,Pop,en,Northern Lights Records,2026,Northern Lights Records,2026,1,Red,GBNLR2600301,Ava Stone; Nina Vale,no,instrumental,${audioBase}/audio/take.wav?signature=s3cr3t
Red Line,Ava Stone,Northern Lights Records,"=""012345678905""",SON-001,06/03/2030,Pop,en,Northern Lights Records,2026,Northern Lights Records,2026,2,Green,GBNLR2600302,Ava Stone,no,instrumental,
`,
    );
    const dir = join(work, 'out-sonosuite');
    const r = await cli.run(['release', 'import', sheet, '--dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = jsonLines(r.stdout).at(-1);
    expect(summary).toMatchObject({ type: 'summary', template: 'sonosuite', header_line: 7, rows: 2, releases_written: 1, rows_refused: 0 });
    const data = parse(await readFile(join(dir, 'SON-001.yaml'), 'utf8'));
    expect(data).toMatchObject({
      upc: '012345678905',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      delivery: { release_date: '2030-03-06' },
    });
    expect(data.tracks[0].file).toBe(`${audioBase}/audio/take.wav?signature=s3cr3t`);
    expect(data.tracks[0].contributors).toEqual([
      { name: 'Ava Stone', role: 'composer' },
      { name: 'Nina Vale', role: 'composer' },
    ]);
    expect(data.tracks[1].file).toBeUndefined();
    // The address may be signed: the file that holds it is its owner's alone.
    expect((await stat(join(dir, 'SON-001.yaml'))).mode & 0o777).toBe(0o600);

    // apply: the address downloaded (its signature never shown), the track without audio created
    // without it, and the submit blocked by that missing audio alone.
    const env = { RELDIST_DOWNLOAD_DIR: join(work, 'downloads') };
    const plan = await cli.run(['release', 'apply', dir, '--plan', '--submit'], { env });
    expect(plan.code).toBe(3);
    expect(plan.stdout).toContain('track_file_missing');
    expect(audioRequests).toBe(1);
    const applied = await cli.run(['release', 'apply', dir, '--submit', '--json'], { env });
    expect(applied.code).toBe(3);
    const line = jsonLines(applied.stdout)[0];
    expect(line).toMatchObject({ catalog_number: 'SON-001', outcome: 'blocked', status: 'draft' });
    expect(line.problems.map((p: { code: string }) => p.code)).toEqual(['track_file_missing']);
    expect(applied.stdout + applied.stderr + plan.stdout + plan.stderr).not.toContain('s3cr3t');
    const release = await cli.json(['release', 'get', String(line.release_id)]);
    expect(release.tracks.map((t: { title: string; file: unknown }) => [t.title, t.file === null])).toEqual([
      ['Red', false],
      ['Green', true],
    ]);
    // Again: downloaded nothing (found from the first run), changed nothing.
    const again = await cli.run(['release', 'apply', dir, '--plan'], { env });
    expect(again.code, again.stdout).toBe(0);
    expect(audioRequests).toBe(1);
  });

  it("UMW's .xlsx: role:Name participants, a release date as a day number, a refused address", async () => {
    const sheet = join(work, 'umw.xlsx');
    const header = [
      'Product Title',
      'Product Version',
      'Product Artist',
      'Product Configuration',
      'Label',
      'UPC',
      'Product Code',
      'Release Date',
      'Genre',
      'Language',
      'P Line',
      'C Line',
      'Price Band',
      'Track Sequence',
      'Track Title',
      'ISRC',
      'Participants',
      'Parental Advisory',
      'Audio URL',
    ];
    const row = (n: number, title: string, isrc: string, participants: string, url = '') => [
      'Gold',
      'Live',
      'Nina Vale',
      'Single',
      'Northern Lights Records',
      '036000241457',
      'UMW-001',
      serial('2030-05-01'),
      'Pop',
      'en',
      '℗ 2026 Northern Lights Records',
      '(C) 2026 Northern Lights Records',
      'Mid Price',
      n,
      title,
      isrc,
      participants,
      'Explicit',
      url,
    ];
    await writeFile(
      sheet,
      workbook(
        [
          {
            name: 'Products',
            rows: [
              header,
              row(1, 'Gold', 'GB-NLR-26-00401', 'primary:Nina Vale;featuring:Lena Voss;composer:Nina Vale;lyricist:Lena Voss'),
              row(2, 'Silver', 'GB-NLR-26-00402', 'primary:Nina Vale;composer:Nina Vale', 'ftp://example.org/silver.wav'),
            ],
          },
        ],
        'xlsx',
      ),
    );
    const dir = join(work, 'out-umw');
    const r = await cli.run(['release', 'import', sheet, '--dir', dir, '--partial']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('UMW participants template');
    expect(r.stderr).toContain(
      `error: ${sheet}:Products:3: Audio URL (column S): bad_address: ftp://example.org/silver.wav: only https addresses are downloaded`,
    );
    const data = parse(await readFile(join(dir, 'UMW-001.yaml'), 'utf8'));
    expect(data).toMatchObject({
      type: 'single',
      version: 'Live',
      explicit: 'explicit',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      delivery: { release_date: '2030-05-01', price_tier: 'mid' },
    });
    expect(data.tracks).toEqual([
      {
        title: 'Gold',
        artists: [
          { name: 'Nina Vale', role: 'primary' },
          { name: 'Lena Voss', role: 'featuring' },
        ],
        contributors: [
          { name: 'Nina Vale', role: 'composer' },
          { name: 'Lena Voss', role: 'lyricist' },
        ],
        isrc: 'GBNLR2600401',
      },
    ]);
    const plan = await cli.run(['release', 'apply', dir, '--plan', '--json']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(jsonLines(plan.stdout).map((l) => [l.catalog_number, l.action])).toEqual([['UMW-001', 'create']]);
  });
});
