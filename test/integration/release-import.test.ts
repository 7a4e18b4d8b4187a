// `reldist release import` against the real reference service: the generic one-row-per-track CSV
// turned into release files that `release apply --plan` takes; rows refused with their line,
// column and reason (validate's damage names); no overwrite without --force; --partial.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-import-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const GENERIC_HEADER =
  'Release title,Release version,Release artists,Label,UPC,Catalogue number,Release date,Original release date,Genre,Language,Production year,P line,C line,Price tier,Track number,Track title,Track version,ISRC,Participants,Explicit,Audio language';

/** Two releases, tracks out of order, one row of each release repeating its columns. */
const GENERIC_CSV = `${GENERIC_HEADER}
Night Drive,,Nina Vale,Northern Lights Records,036000241457,NLR-0100,2030-03-06,,Electronic,English,2026,2026 Northern Lights Records,Northern Lights Records,Front Line,2,Second Light,Radio Edit,GBNLR2600102,primary:Nina Vale;composer:Nina Vale;producer:Ava Stone,No,instrumental
Night Drive,,Nina Vale,Northern Lights Records,036000241457,NLR-0100,2030-03-06,,Electronic,English,2026,2026 Northern Lights Records,Northern Lights Records,Front Line,1,First Light,,GBNLR2600101,primary:Nina Vale;featuring:Lena Voss;composer:Nina Vale;lyricist:Lena Voss,Yes,en
"Songs, Vol. 2",Deluxe,Ava Stone; Nina Vale,Northern Lights Records,,NLR-0101,13/04/2030,2001-02-03,Pop,de,,℗ 2025 Ava Stone,© 2025 Ava Stone,mid,1,Eins,,,composer:Ava Stone,no,de
`;

describe('release import: the generic CSV', () => {
  it('writes one release file per release, in the format apply reads, and apply --plan takes them', async () => {
    const sheet = join(work, 'generic.csv');
    await writeFile(sheet, GENERIC_CSV);
    const dir = join(work, 'out-generic');
    const r = await cli.run(['release', 'import', sheet, '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('one row per track (generic), header on line 1, 3 rows, 2 releases');
    expect(r.stderr).toContain('wrote 2 release files');
    expect((await readdir(dir)).sort()).toEqual(['NLR-0100.yaml', 'NLR-0101.yaml']);

    const a = parse(await readFile(join(dir, 'NLR-0100.yaml'), 'utf8'));
    expect(a).toMatchObject({
      type: 'single',
      title: 'Night Drive',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'Northern Lights Records',
      catalog_number: 'NLR-0100',
      upc: '036000241457',
      genre: 'Electronic',
      language: 'en',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
      explicit: 'explicit',
      delivery: { release_date: '2030-03-06', price_tier: 'front' },
    });
    // Ordered by track number, not row order; a track's own artists only where they differ.
    expect(a.tracks).toEqual([
      {
        title: 'First Light',
        artists: [
          { name: 'Nina Vale', role: 'primary' },
          { name: 'Lena Voss', role: 'featuring' },
        ],
        contributors: [
          { name: 'Nina Vale', role: 'composer' },
          { name: 'Lena Voss', role: 'lyricist' },
        ],
        isrc: 'GBNLR2600101',
        audio_language: 'en',
      },
      {
        title: 'Second Light',
        version: 'Radio Edit',
        contributors: [
          { name: 'Nina Vale', role: 'composer' },
          { name: 'Ava Stone', role: 'producer' },
        ],
        isrc: 'GBNLR2600102',
        explicit: 'not_explicit',
        audio_language: 'instrumental',
      },
    ]);
    const b = parse(await readFile(join(dir, 'NLR-0101.yaml'), 'utf8'));
    expect(b).toMatchObject({
      title: 'Songs, Vol. 2',
      version: 'Deluxe',
      artists: [
        { name: 'Ava Stone', role: 'primary' },
        { name: 'Nina Vale', role: 'primary' },
      ],
      original_release_date: '2001-02-03',
      // 13/04: the day is above 12, so the order is told by the value.
      delivery: { release_date: '2030-04-13', price_tier: 'mid' },
      p_line: { year: 2025, owner: 'Ava Stone' },
      language: 'de',
      explicit: 'not_explicit',
    });
    expect(b.upc).toBeUndefined();

    const plan = await cli.run(['release', 'apply', dir, '--plan', '--json']);
    expect(plan.code, plan.stderr).toBe(8);
    const planned = jsonLines(plan.stdout);
    expect(planned.map((p) => [p.catalog_number, p.action])).toEqual([
      ['NLR-0100', 'create'],
      ['NLR-0101', 'create'],
    ]);
  });

  it('refuses rows with their line, column and reason, writes nothing for their release, and --partial writes the rest', async () => {
    const sheet = join(work, 'damaged.csv');
    await writeFile(
      sheet,
      `${GENERIC_HEADER}
Good One,,Nina Vale,Northern Lights Records,,NLR-0200,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,1,Good,,,composer:Nina Vale,no,en
Bad One,,Nina Vale,Northern Lights Records,3.6E+11,NLR-0201,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,1,Fine Track,,,composer:Nina Vale,no,en
Bad One,,Nina Vale,Northern Lights Records,,NLR-0201,03/04/2030,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,2,Other Track,,,singer:Nina Vale,no,en
Zeros,,Nina Vale feat. Lena Voss,Northern Lights Records,36000241457,NLR-0202,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,1,Zero,,,composer:Nina Vale,no,en
No Label,,Nina Vale,,,NLR-0203,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,1,Alone,,,composer:Nina Vale,no,en
No Label,,Nina Vale,,,NLR-0203,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,2,Together,,,composer:Nina Vale,no,en
Half,,Nina Vale,Northern Lights Records,,NLR-0204,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,1,Kept,,GBNLR2600501,composer:Nina Vale,no,en
Half,,Nina Vale,Northern Lights Records,,NLR-0204,2030-03-06,,Pop,en,,2026 Northern Lights Records,Northern Lights Records,,2,Left Out,,GBNLR26005,composer:Nina Vale,no,en
Half,,Nina Vale,Other Records,,NLR-0204,2030-03-06,,Pop,en,2026,Northern Lights Records,Northern Lights Records,,3,Other Label,,GBNLR2600503,composer:Nina Vale,no,en
,,,,,,,,,,,,,,,,,,,,
,,,,,,,,,,,,,,,,,,,,
`,
    );
    const dir = join(work, 'out-damaged');
    const r = await cli.run(['release', 'import', sheet, '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: ${sheet}:3: UPC (column E): scientific_notation: UPC "3.6E+11": 3.6E+11 is scientific notation: the spreadsheet kept only the first digits and the rest are lost`,
    );
    expect(r.stderr).toContain(`error: ${sheet}:4: Release date (column G): ambiguous_date: "03/04/2030" could be 2030-04-03 or 2030-03-04`);
    expect(r.stderr).toContain(`error: ${sheet}:4: Participants (column S): bad_value: "singer" is not a role`);
    // A lost leading zero is repaired as validate repairs it, and said.
    expect(r.stderr).toContain(`warning: ${sheet}:5: UPC (column E): lost_leading_zero: "36000241457" 11 digits: a leading zero was lost`);
    expect(r.stderr).toContain(`error: ${sheet}:6: Label (column D): missing: no label on any row of the release`);
    expect(r.stderr).toContain(`error: ${sheet}:9: ISRC (column R): bad_length: ISRC "GBNLR26005"`);
    // A P line with its year on one row and without on another is the same line; another label is not.
    expect(r.stderr).toContain(
      `error: ${sheet}:10: Label (column D): conflict: "Other Records" here, but "Northern Lights Records" on line 8 of the same release`,
    );
    expect(r.stderr).not.toContain('P line (column L): conflict');
    expect(r.stderr).toContain('5 rows of');
    expect((await readdir(dir)).sort()).toEqual(['NLR-0200.yaml', 'NLR-0202.yaml']);
    const zeros = parse(await readFile(join(dir, 'NLR-0202.yaml'), 'utf8'));
    expect(zeros.upc).toBe('036000241457');
    // "feat." in an artists cell is read as a featured artist, as a person reads it.
    expect(zeros.artists).toEqual([
      { name: 'Nina Vale', role: 'primary' },
      { name: 'Lena Voss', role: 'featuring' },
    ]);

    // In the way: nothing written without --force.
    const again = await cli.run(['release', 'import', sheet, '--dir', dir, '--partial', '--json']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('2 release files already in');

    const partial = await cli.run(['release', 'import', sheet, '--dir', dir, '--partial', '--force', '--json']);
    expect(partial.code).toBe(1);
    const lines = jsonLines(partial.stdout);
    expect(lines.filter((l) => l.type === 'problem' && l.severity === 'error').map((l) => [l.line, l.code])).toEqual([
      [3, 'scientific_notation'],
      [4, 'ambiguous_date'],
      [4, 'bad_value'],
      [6, 'missing'],
      [9, 'bad_length'],
      [10, 'conflict'],
    ]);
    const summary = lines.at(-1);
    expect(summary).toMatchObject({ type: 'summary', rows: 9, releases: 5, releases_written: 3, rows_refused: 5 });
    // NLR-0204 without its refused row: one track, the place of the other left free.
    expect(parse(await readFile(join(dir, 'NLR-0204.yaml'), 'utf8')).tracks.map((t: { title: string }) => t.title)).toEqual(['Kept']);
    // Both rows of NLR-0201 are refused: nothing of it to write, even with --partial; NLR-0203 has
    // no label, so no release file of it could be applied: not written either.
    expect((await readdir(dir)).sort()).toEqual(['NLR-0200.yaml', 'NLR-0202.yaml', 'NLR-0204.yaml']);
    const plan = await cli.run(['release', 'apply', dir, '--plan', '--json']);
    expect(plan.code, plan.stderr).toBe(8);
  });
});
