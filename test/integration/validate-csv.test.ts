// `reldist validate` on codes straight out of a spreadsheet: CSV/TSV files (quoted cells, BOM,
// CRLF, a header), --column by name and number, stdin, --invalid-only, --fix, --format csv and
// the summary by problem code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines as parseJsonLines } from '../helpers/json-lines.js';
import { useCli, type RunOptions, type RunResult } from './cli-harness.js';

const cli = useCli();
const run = (argv: string[], o: Partial<RunOptions> = {}): Promise<RunResult> => cli.run(argv, o);
const dir = mkdtempSync(join(tmpdir(), 'reldist-validate-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const jsonLines = (text: string) => parseJsonLines<Record<string, unknown>>(text);

// What a spreadsheet export looks like: BOM, CRLF, a header, a quoted cell with a comma and one
// with a line break, and the usual damage.
const CATALOG = [
  '\ufeffTitle,UPC,Notes',
  '"Song, with a comma",036000241457,ok',
  '"Two\r\nlines",3.6E+11,scientific',
  'Lost zero,36000241457,',
  'Decimal,"036000241457.0",',
  'Bad,036000241458,',
  'Again,036000241457,duplicate',
  'Book,9780306406157,isbn',
  'Empty,,',
].join('\r\n');

describe('validate: CSV and TSV input', () => {
  it('a .csv file: the column found by its header, the header skipped, lines and columns in JSON', async () => {
    const path = file('catalog.csv', `${CATALOG}\r\n`);
    const r = await run(['validate', 'upc', '--file', path, '--json']);
    expect(r.code).toBe(3);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => [l.input, l.line, l.column, l.valid])).toEqual([
      ['036000241457', 2, 'UPC', true],
      ['3.6E+11', 3, 'UPC', false],
      ['36000241457', 5, 'UPC', false],
      ['036000241457.0', 6, 'UPC', false],
      ['036000241458', 7, 'UPC', false],
      ['036000241457', 8, 'UPC', true],
      ['9780306406157', 9, 'UPC', true],
    ]);
    expect(lines.map((l) => (l.problems as { code: string }[]).map((p) => p.code))).toEqual([
      [],
      ['scientific_notation'],
      ['lost_leading_zero'],
      ['decimal_suffix'],
      ['bad_check_digit'],
      ['duplicate'],
      ['not_release_prefix'],
    ]);
    expect(lines[5]!.problems).toEqual([expect.objectContaining({ message: 'the same code as line 2' })]);
    expect(lines.map((l) => l.repaired ?? null)).toEqual([null, null, '036000241457', '036000241457', null, null, null]);
    expect(JSON.parse(r.stderr.split('\n')[0]!)).toEqual({
      summary: {
        checked: 7,
        valid: 3,
        invalid: 4,
        warnings: 2,
        // The row named Empty has no code.
        empty: 1,
        problems: { bad_check_digit: 1, decimal_suffix: 1, duplicate: 1, lost_leading_zero: 1, not_release_prefix: 1, scientific_notation: 1 },
      },
    });
  });

  it('counts every line: blank ones (before the header too), and line breaks inside quoted cells of any kind', async () => {
    const text = '\nTitle,UPC\r\n\r\n"Two\r\nlines",036000241457\r\n"a\nb\nc",3.6E+11\r\n  ,\r\nX,036000241457';
    const r = await run(['validate', 'upc', '--file', file('blanks.csv', text), '--format', 'csv', '--quiet']);
    expect(r.stdout.split('\r\n').filter(Boolean)).toEqual([
      'line,input,verdict,problems,repaired,normalized,column',
      '4,036000241457,valid,,,036000241457,UPC',
      '6,3.6E+11,invalid,scientific_notation,,,UPC',
      '10,036000241457,warning,duplicate,,036000241457,UPC',
    ]);
  });

  it("a semicolon-separated .csv (Excel's where the comma is the decimal mark) is read by its separator", async () => {
    const semi = file('semi.csv', 'Titel;UPC;Preis\r\n"Lied; eins";036000241457;9,99\r\nZwei;3,6E+11;1,00\r\n');
    const r = await run(['validate', 'upc', '--file', semi, '--format', 'csv', '--quiet']);
    expect(r.stdout.split('\r\n').filter(Boolean)).toEqual([
      'line,input,verdict,problems,repaired,normalized,column',
      '2,036000241457,valid,,,036000241457,UPC',
      '3,"3,6E+11",invalid,scientific_notation,,,UPC',
    ]);
    // Without a header: the separator is the one on every line as often (not the decimal comma).
    const bare = await run(['validate', 'upc', '--file', file('bare-semi.csv', '036000241457;9,99\n036000241458;12,50\n'), '--column', '1', '--quiet']);
    expect(
      bare.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 2)),
    ).toEqual([
      ['036000241457', 'valid'],
      ['036000241458', 'invalid'],
    ]);
    // A comma-separated file with a semicolon in a cell stays comma-separated.
    const comma = await run(['validate', 'upc', '--file', file('comma.csv', 'Title,UPC\nA;B,036000241457\nC,036000241457\n'), '--quiet']);
    expect(comma.stdout.split('\n')[0]).toBe('036000241457\tvalid\t036000241457\t\t2\tUPC');
  });

  it('a spreadsheet workbook (.xlsx, .xls) is refused with what to do, as a list, a table or stdin', async () => {
    const xlsx = join(dir, 'catalog.xlsx');
    writeFileSync(xlsx, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), Buffer.from('[Content_Types].xml\n036000241457\n')]));
    const xls = join(dir, 'old.xls');
    writeFileSync(xls, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x0a, 0x30]));
    const hint = 'hint: export the sheet as CSV (in Excel: File > Save As > CSV UTF-8) and give that file\n';
    for (const argv of [
      ['--file', xlsx],
      ['--file', xlsx, '--column', 'UPC'],
      ['--file', xls],
    ]) {
      const r = await run(['validate', 'upc', ...argv]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toBe(`error: --file ${argv[1]} is a spreadsheet workbook (Excel, LibreOffice), not text\n${hint}`);
    }
    const { readFileSync } = await import('node:fs');
    const piped = await run(['validate', 'upc', '-'], { stdin: readFileSync(xlsx, 'latin1') });
    expect(piped.code).toBe(2);
  });

  it('--column by name and by number; a header is never reported as a code', async () => {
    const path = file('two.csv', 'isrc,upc\nUSRC17607839,036000241457\n');
    const byName = await run(['validate', 'upc', '--file', path, '--column', 'UPC']);
    expect(byName.stdout).toBe('036000241457\tvalid\t036000241457\t\t2\tupc\n');
    const byNumber = await run(['validate', 'isrc', '--file', path, '--column', '1']);
    expect(byNumber.stdout).toBe('USRC17607839\tvalid\tUSRC17607839\t\t2\tisrc\n');
    const headerless = await run(['validate', 'upc', '--file', file('bare.csv', '036000241457,x\n036000241458,y\n'), '--column', '1', '--quiet']);
    expect(headerless.stdout.split('\n')[0]).toBe('036000241457\tvalid\t036000241457\t\t1\t1');
    const missing = await run(['validate', 'upc', '--file', path, '--column', 'EAN']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --column EAN: no such column in the first line of --file .*two\.csv\nhint: its columns: isrc, upc\n/);
    const ambiguous = await run(['validate', 'upc', '--file', file('wide.csv', 'a,b\n1,2\n')]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/has 2 columns: say which holds the codes/);
  });

  it('TSV by extension, and stdin with --column (a tab in the first line means TSV)', async () => {
    const tsv = 'Title\tISRC\r\nA\tUS-RC1-76-07839\r\nB\t"USRC1760783"\r\n';
    const fromFile = await run(['validate', 'isrc', '--file', file('tracks.tsv', tsv), '--json', '--quiet']);
    expect(jsonLines(fromFile.stdout).map((l) => [l.input, l.valid, l.line])).toEqual([
      ['US-RC1-76-07839', true, 2],
      ['"USRC1760783"', false, 3],
    ]);
    const fromStdin = await run(['validate', 'isrc', '-', '--column', 'isrc', '--json', '--quiet'], { stdin: tsv });
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    const fromFileDash = await run(['validate', 'isrc', '--file', '-', '--column', 'isrc', '--json', '--quiet'], { stdin: tsv });
    expect(fromFileDash.stdout).toBe(fromFile.stdout);
  });

  it("--file - reads stdin like '-', a plain list numbered by line; stdin named twice is a usage error", async () => {
    const list = 'USRC17607839\n\nUSRC1760783X\n';
    const dash = await run(['validate', 'isrc', '-', '--json', '--quiet'], { stdin: list });
    const fileDash = await run(['validate', 'isrc', '--file', '-', '--json', '--quiet'], { stdin: list });
    expect(fileDash.stdout).toBe(dash.stdout);
    expect(jsonLines(fileDash.stdout).map((l) => [l.input, l.line])).toEqual([
      ['USRC17607839', 1],
      ['USRC1760783X', 3],
    ]);
    const twice = await run(['validate', 'isrc', '-', '--file', '-'], { stdin: list });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("'-' (stdin) can be given only once");
  });

  it('--invalid-only, --fix and --format csv', async () => {
    const path = file('catalog2.csv', `${CATALOG}\r\n`);
    const invalidOnly = await run(['validate', 'upc', '--file', path, '--invalid-only', '--fix']);
    expect(
      invalidOnly.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 3)),
    ).toEqual([
      ['3.6E+11', 'invalid', ''],
      ['36000241457', 'invalid', ''],
      ['036000241457.0', 'invalid', ''],
      ['036000241458', 'invalid', ''],
    ]);
    // --fix: the fixed code and its verdict are the last two fields; "normalized" stays empty.
    expect(
      invalidOnly.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(-4)),
    ).toEqual([
      ['3', 'UPC', '', ''],
      ['5', 'UPC', '036000241457', 'valid'],
      ['6', 'UPC', '036000241457', 'valid'],
      ['7', 'UPC', '', ''],
    ]);
    expect(invalidOnly.stderr).toMatch(
      /^checked 7, valid 3, invalid 4, warnings 2, 1 empty skipped\nby problem: bad_check_digit 1, decimal_suffix 1, duplicate 1, lost_leading_zero 1, not_release_prefix 1, scientific_notation 1\n/,
    );
    const tty = await run(['validate', 'upc', '--file', path, '--invalid-only', '--fix', '--quiet'], { tty: true });
    expect(tty.stdout).toMatch(/^Line +Input +Verdict +Normalized +Kind +Fixed +Reason\n/);
    expect(tty.stdout).toMatch(/\n5 +36000241457 +invalid {2,}036000241457 valid +11 digits: a leading zero was lost/);
    const csv = await run(['validate', 'upc', '--file', path, '--format', 'csv', '--quiet']);
    expect(csv.stdout).toBe(
      [
        'line,input,verdict,problems,repaired,normalized,column',
        '2,036000241457,valid,,,036000241457,UPC',
        '3,3.6E+11,invalid,scientific_notation,,,UPC',
        '5,36000241457,invalid,lost_leading_zero,036000241457,,UPC',
        '6,036000241457.0,invalid,decimal_suffix,036000241457,,UPC',
        '7,036000241458,invalid,bad_check_digit,,,UPC',
        '8,036000241457,warning,duplicate,,036000241457,UPC',
        '9,9780306406157,warning,not_release_prefix,,9780306406157,UPC',
        '',
      ].join('\r\n'),
    );
    const plainCsv = await run(['validate', 'upc', '"036000241457"', '--format', 'csv', '--quiet']);
    expect(plainCsv.stdout).toBe('line,input,verdict,problems,repaired,normalized\r\n,"""036000241457""",invalid,quoted,036000241457,\r\n');
    // --fix: the fixed code and its own verdict, beside the input's; Excel's ="…" read as the code inside.
    const fixCsv = await run(['validate', 'upc', '="036000241457"', '="036000241456"', '3.6E+11', '--format', 'csv', '--fix', '--quiet']);
    expect(fixCsv.stdout).toBe(
      [
        'line,input,verdict,problems,repaired,normalized,fixed,fixed_verdict',
        ',"=""036000241457""",invalid,text_formula,036000241457,,036000241457,valid',
        ',"=""036000241456""",invalid,text_formula bad_check_digit,,,036000241456,invalid',
        ',3.6E+11,invalid,scientific_notation,,,,',
        '',
      ].join('\r\n'),
    );
    const bad = await run(['validate', 'upc', '1', '--format', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --format xml: the only format is csv\n/);
  });

  it("a plain list saved as UTF-16 (Excel's Unicode Text) reads like UTF-8, from a file or stdin", async () => {
    const { Readable } = await import('node:stream');
    const text = '036000241457\r\n3.6E+11\r\n\r\n036000241457\r\n';
    const utf8 = await run(['validate', 'upc', '--file', file('list8.txt', text), '--quiet']);
    expect(utf8.stdout.split('\n')[1]).toMatch(/^3\.6E\+11\tinvalid\t\t.*scientific notation.*\t2$/);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    for (const [name, bytes] of [
      ['list16le.txt', le],
      ['list16be.txt', be],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const r = await run(['validate', 'upc', '--file', path, '--quiet']);
      expect([r.code, r.stdout, r.stderr]).toEqual([utf8.code, utf8.stdout, utf8.stderr]);
    }
    // Cut in pieces, one of them inside a character: stdin comes in whatever pieces the pipe gives.
    const pieces = [le.subarray(0, 1), le.subarray(1, 7), le.subarray(7)];
    const piped = await run(['validate', 'upc', '-', '--quiet'], { stdinStream: Readable.from(pieces) });
    expect(piped.stdout).toBe(utf8.stdout);
  });

  it('a plain list keeps the plain reader: a .txt file is one code per line, numbered, no column', async () => {
    const r = await run(['validate', 'upc', '--file', file('list.txt', '036000241457\n"036000241457"\n'), '--json', '--quiet']);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => [l.input, l.valid, l.line, 'column' in l])).toEqual([
      ['036000241457', true, 1, false],
      ['"036000241457"', false, 2, false],
    ]);
  });

  it('validate any: the kind of each code recognised, from arguments and from a table', async () => {
    const r = await run(['validate', 'any', '036000241457', 'us-rc1-76-07839', '3.6E+11', '"USRC17607839"', '--json', '--quiet']);
    expect(r.code).toBe(3);
    expect(jsonLines(r.stdout).map((l) => [l.input, l.valid, l.kind, l.display, (l.problems as { code: string }[]).map((p) => p.code), l.repaired])).toEqual([
      ['036000241457', true, 'upc-a', undefined, [], undefined],
      ['us-rc1-76-07839', true, 'isrc', 'US-RC1-76-07839', [], undefined],
      ['3.6E+11', false, null, undefined, ['scientific_notation'], undefined],
      ['"USRC17607839"', false, null, null, ['quoted'], 'USRC17607839'],
    ]);
    const table = await run(['validate', 'any', '--file', file('mixed.csv', 'Title,ISRC\nA,USRC17607839\n'), '--quiet']);
    expect(table.stdout).toBe('USRC17607839\tvalid\tUSRC17607839\t\t2\tISRC\n');
    // Without a verb, `validate <code>…` is `validate any`; a first word without a digit is no
    // code but a mistyped verb.
    const bare = await run(['validate', '036000241457', 'us-rc1-76-07839', '3.6E+11', '"USRC17607839"', '--json', '--quiet']);
    expect(bare.code).toBe(3);
    expect(bare.stdout).toBe(r.stdout);
    const typo = await run(['validate', 'ucp', '036000241457']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: unknown command 'ucp'\nhint: did you mean upc?\n");
    expect(typo.stdout).toBe('');
    // Nothing at all: the group's help, as for any other group.
    const help = await run(['validate']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: reldist validate \[options\] \[command\]/);
    const none = await run(['validate', 'any']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: no code to check\n/);
    const remote = await run(['validate', 'any', '036000241457', '--remote']);
    expect(remote.code).toBe(2);
  });
});
