// `reldist validate` on codes from spreadsheets, as support engineers get them (issue 25):
// Excel's ="…" cells, --fix in a field of its own beside the input's verdict, the compact
// "normalized" form in every output, empty cells counted, codes piped in without '-'.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERAL_PATH_ENV } from '../../src/cli/commands/validate/check-codes.js';
import { jsonLines as parseJsonLines } from '../helpers/json-lines.js';
import { useCli, type RunOptions } from './cli-harness.js';

const cli = useCli();
const run = (argv: string[], o: Partial<RunOptions> = {}) => cli.run(argv, o);
const jsonLines = (text: string) => parseJsonLines<Record<string, unknown>>(text);
const codesOf = (line: Record<string, unknown>) => (line.problems as { code: string }[]).map((p) => p.code);

describe("validate: Excel's text formula", () => {
  it('="…" and its CSV-quoted form "=""…""" are read as the code inside, named text_formula, never as bad characters', async () => {
    const path = join(cli.configDir, 'formula.txt');
    writeFileSync(path, '="036000241457"\n"=""036000241457"""\n="036000241456"\n="USRC17607839"\n');
    for (const env of [{}, { [GENERAL_PATH_ENV]: '1' }]) {
      const r = await run(['validate', 'upc', '--file', path, '--json'], { env });
      expect(r.code).toBe(3);
      const lines = jsonLines(r.stdout);
      expect(lines.map((l) => [l.input, l.valid, codesOf(l), l.repaired ?? null])).toEqual([
        ['="036000241457"', false, ['text_formula'], '036000241457'],
        ['"=""036000241457"""', false, ['text_formula'], '036000241457'],
        ['="036000241456"', false, ['text_formula', 'bad_check_digit'], null],
        // A UPC is all digits: inside the formula, the ISRC's letters are what is wrong.
        ['="USRC17607839"', false, ['text_formula', 'bad_character', 'bad_character', 'bad_character', 'bad_character'], null],
      ]);
      expect(JSON.parse(r.stderr.split('\n')[0]!).summary.problems).toMatchObject({ text_formula: 4 });
    }
  });

  it('in a CSV table the cell "=""…""" is read as ="…" by the CSV reader, then as the code inside', async () => {
    const path = join(cli.configDir, 'formula.csv');
    writeFileSync(path, 'Title,UPC,ISRC\r\nA,"=""036000241457""","=""USRC17607839"""\r\n');
    const upc = await run(['validate', 'upc', '--file', path, '--json', '--quiet']);
    expect(jsonLines(upc.stdout).map((l) => [l.input, codesOf(l), l.repaired])).toEqual([['="036000241457"', ['text_formula'], '036000241457']]);
    const isrc = await run(['validate', 'isrc', '--file', path, '--json', '--quiet']);
    expect(jsonLines(isrc.stdout).map((l) => [l.input, codesOf(l), l.repaired])).toEqual([['="USRC17607839"', ['text_formula'], 'USRC17607839']]);
  });
});

describe('validate --fix: the repair in a field of its own, with its own verdict', () => {
  const inputs = ['036000241457', '="036000241457"', '36000241457.0', '="036000241456"', '3.6E+11', '036000241458'];

  it('JSON: fixed and fixed_valid beside valid; normalized never takes the repair', async () => {
    const r = await run(['validate', 'upc', ...inputs, '--json', '--fix', '--quiet']);
    expect(jsonLines(r.stdout).map((l) => [l.input, l.valid, l.normalized, l.fixed, l.fixed_valid])).toEqual([
      ['036000241457', true, '036000241457', null, null],
      ['="036000241457"', false, null, '036000241457', true],
      ['36000241457.0', false, null, '036000241457', true],
      ['="036000241456"', false, null, '036000241456', false],
      ['3.6E+11', false, null, null, null],
      ['036000241458', false, null, null, null],
    ]);
    // Without --fix the records keep their shape (repaired, as before).
    const plain = await run(['validate', 'upc', ...inputs, '--json', '--quiet']);
    expect(jsonLines(plain.stdout).some((l) => 'fixed' in l)).toBe(false);
  });

  it('piped rows: the fixed code and its verdict are the last two fields, the normalized field stays the input verdict’s', async () => {
    const r = await run(['validate', 'upc', ...inputs, '--fix', '--quiet']);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t'))
        .map((f) => [f[0], f[1], f[2], f[4], f[5]]),
    ).toEqual([
      ['036000241457', 'valid', '036000241457', '', ''],
      ['="036000241457"', 'invalid', '', '036000241457', 'valid'],
      ['36000241457.0', 'invalid', '', '036000241457', 'valid'],
      ['="036000241456"', 'invalid', '', '036000241456', 'invalid'],
      ['3.6E+11', 'invalid', '', '', ''],
      ['036000241458', 'invalid', '', '', ''],
    ]);
  });

  it('from a file, the bulk path and the general path write the same --fix fields', async () => {
    const path = join(cli.configDir, 'fix.txt');
    writeFileSync(path, `${inputs.join('\n')}\n`);
    for (const flags of [['--json'], []]) {
      const fast = await run(['validate', 'upc', '--file', path, '--fix', ...flags]);
      const general = await run(['validate', 'upc', '--file', path, '--fix', ...flags], { env: { [GENERAL_PATH_ENV]: '1' } });
      expect(fast.stdout).toBe(general.stdout);
      expect(fast.stdout).toContain('036000241457');
    }
  });
});

describe('validate: "normalized" is the compact form everywhere', () => {
  it('an ISRC in piped rows, --format csv, --json and the terminal table: no hyphens', async () => {
    const code = 'us-rc1-76-07839';
    const rows = await run(['validate', 'isrc', code, '--quiet']);
    expect(rows.stdout).toBe('us-rc1-76-07839\tvalid\tUSRC17607839\t\n');
    const csv = await run(['validate', 'isrc', code, '--format', 'csv', '--quiet']);
    expect(csv.stdout).toBe('line,input,verdict,problems,repaired,normalized\r\n,us-rc1-76-07839,valid,,,USRC17607839\r\n');
    const json = jsonLines((await run(['validate', 'isrc', code, '--json', '--quiet'])).stdout)[0]!;
    expect([json.normalized, json.display]).toEqual(['USRC17607839', 'US-RC1-76-07839']);
    const tty = await run(['validate', 'isrc', code, '--quiet'], { tty: true, columns: 100 });
    expect(tty.stdout).toMatch(/\nus-rc1-76-07839 +valid +USRC17607839 +isrc\n/);
    // From a file too, where the bulk path writes the rows.
    const path = join(cli.configDir, 'isrcs.txt');
    writeFileSync(path, 'USRC17607839\nus-rc1-76-07839\n');
    const file = await run(['validate', 'isrc', '--file', path, '--quiet']);
    expect(file.stdout).toBe('USRC17607839\tvalid\tUSRC17607839\t\t1\nus-rc1-76-07839\tvalid\tUSRC17607839\twarning: the same code as line 1\t2\n');
  });
});

describe('validate: empty lines and cells are counted', () => {
  it('in a list (the bulk path and the general path) and in a table, on stderr and in the JSON summary', async () => {
    const list = join(cli.configDir, 'blanks.txt');
    writeFileSync(list, '036000241457\n\n   \n036000241457\r\n\r\n\t\n');
    for (const env of [{}, { [GENERAL_PATH_ENV]: '1' }]) {
      const r = await run(['validate', 'upc', '--file', list], { env });
      expect(r.stderr).toBe('checked 2, valid 2, invalid 0, warnings 1, 4 empty skipped\nby problem: duplicate 1\n');
      const json = await run(['validate', 'upc', '--file', list, '--json'], { env });
      expect(JSON.parse(json.stderr).summary).toMatchObject({ checked: 2, empty: 4 });
    }
    const table = join(cli.configDir, 'blanks.csv');
    writeFileSync(table, 'Title,UPC\nA,036000241457\nB,\nC,  \n\n');
    const r = await run(['validate', 'upc', '--file', table]);
    expect(r.stderr).toBe('checked 1, valid 1, invalid 0, warnings 0, 3 empty skipped\n');
    // Nothing skipped: the summary as it always was.
    const none = await run(['validate', 'upc', '036000241457']);
    expect(none.stderr).toBe('checked 1, valid 1, invalid 0, warnings 0\n');
  });
});

describe('validate: codes piped in without -', () => {
  it('reads stdin when no code is named and stdin is not a terminal, with line numbers', async () => {
    const r = await run(['validate', 'upc'], { stdin: '036000241457\n036000241458\n' });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('036000241457\tvalid\t036000241457\t\t1\n036000241458\tinvalid\t\tcheck digit is 8, it should be 7\t2\n');
    const isrc = await run(['validate', 'isrc', '--json', '--quiet'], { stdin: 'USRC17607839\n' });
    expect(jsonLines(isrc.stdout)[0]).toMatchObject({ valid: true, line: 1 });
    const any = await run(['validate', 'any', '--quiet'], { stdin: 'USRC17607839\n036000241457\n' });
    expect(any.code).toBe(0);
    // A table piped in with --column.
    const table = await run(['validate', 'upc', '--column', 'UPC', '--quiet'], { stdin: 'Title,UPC\nA,036000241457\n' });
    expect(table.stdout).toBe('036000241457\tvalid\t036000241457\t\t2\tUPC\n');
  });

  it('an empty pipe is as if nothing was given: a usage error saying so', async () => {
    const r = await run(['validate', 'upc'], { stdin: '' });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe('error: no UPC to check\nhint: stdin was empty: give codes as arguments, pipe them in, or --file F\n');
    // '-' named: an empty stdin is an empty list, as before.
    expect((await run(['validate', 'upc', '-'], { stdin: '' })).code).toBe(0);
  });
});
