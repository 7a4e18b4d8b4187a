// `reldist validate` end to end: the built binary, piped, as a script or CI job would run it.
// Needs `npm run build` first (npm test does it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, type CliRun } from './sandbox-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'reldist-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<CliRun> {
  return runBin(args, { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...opts.env }, opts.input ?? '');
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('validate upc', () => {
  it('a valid code: a row on stdout, the summary on stderr, exit 0', async () => {
    const r = await run(['validate', 'upc', '036000241457']);
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual([['036000241457', 'valid', '036000241457', '']]);
    expect(r.stderr).toBe('checked 1, valid 1, invalid 0, warnings 0\n');
  });

  it('an invalid code: the reason in the row, exit 3 with one error line', async () => {
    const r = await run(['validate', 'upc', '036000241456', '0-36000-24145-7']);
    expect(r.code).toBe(3);
    expect(rows(r.stdout)).toEqual([
      ['036000241456', 'invalid', '', 'check digit is 6, it should be 7'],
      ['0-36000-24145-7', 'valid', '036000241457', ''],
    ]);
    expect(r.stderr).toBe('checked 2, valid 1, invalid 1, warnings 0\nby problem: bad_check_digit 1\nerror: 1 of 2 codes are invalid\n');
  });

  it('--json gives JSON Lines even for one code, with a JSON summary on stderr', async () => {
    const r = await run(['validate', 'upc', '--json', '12345678905']);
    expect(r.code).toBe(3);
    const [line, ...rest] = jsonLines(r.stdout);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ input: '12345678905', valid: false, normalized: null, kind: null });
    // 11 digits that are a UPC-A once a leading zero is back: named, with the repaired code.
    expect((line!.problems as { code: string }[])[0]!.code).toBe('lost_leading_zero');
    expect(line!.repaired).toBe('012345678905');
    const [summary, error] = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(summary).toEqual({ summary: { checked: 1, valid: 0, invalid: 1, warnings: 0, empty: 0, problems: { lost_leading_zero: 1 } } });
    expect(error.error.code).toBe('validation_failed');
  });

  it('reads stdin with "-": CRLF, blank lines, order kept, arguments first', async () => {
    const input = '012345678905\r\n\r\n   \n0012345678904\r\n978-0-471-11709-4\n\n0 12345 67890 5';
    const r = await run(['validate', 'upc', '036000241457', '-'], { input });
    expect(r.code).toBe(3);
    expect(rows(r.stdout).map((x) => [x[0], x[1]])).toEqual([
      ['036000241457', 'valid'],
      ['012345678905', 'valid'],
      ['0012345678904', 'invalid'],
      ['978-0-471-11709-4', 'valid'],
      ['0 12345 67890 5', 'valid'],
    ]);
    // 978: an ISBN, valid but not a release code; the last line is the second one's code again.
    expect(r.stderr).toMatch(/^checked 5, valid 4, invalid 1, warnings 2, 3 empty skipped\nby problem: bad_check_digit 1, duplicate 1, not_release_prefix 1\n/);
    expect(rows(r.stdout)[4]![3]).toBe('warning: the same code as line 1');
  });

  it('reads --file, refuses look-alikes with their reason and echoes the input intact', async () => {
    const path = file('upcs.txt', '\ufeff０１２３４５６７８９０５\r\n978–0–471–11709–4\r\n"quoted\\"\r\n036000241457\r\n');
    const r = await run(['validate', 'upc', '--file', path, '--json']);
    expect(r.code).toBe(3);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.input)).toEqual(['０１２３４５６７８９０５', '978–0–471–11709–4', '"quoted\\"', '036000241457']);
    expect(lines.map((l) => (l.problems as { code: string }[])[0]?.code ?? null)).toEqual(['non_ascii_digit', 'unicode_dash', 'quoted', null]);
    // Each line of a list carries its number.
    expect(lines[3]).toEqual({ input: '036000241457', valid: true, normalized: '036000241457', kind: 'upc-a', problems: [], line: 4 });
  });

  it('--quiet drops the summary; a valid run prints nothing on stderr', async () => {
    const ok = await run(['validate', 'upc', '-q', '036000241457']);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    const bad = await run(['validate', 'upc', '-q', '1']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe('error: 1 of 1 code is invalid\n');
  });

  it('usage errors name the flag or file, exit 2, nothing on stdout', async () => {
    const missing = await run(['validate', 'upc', '--file', join(dir, 'nope.txt')]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: --file .*nope\.txt: no such file\n/);
    const none = await run(['validate', 'upc']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: no UPC to check\nhint: .*--file/);
    const release = await run(['validate', 'upc', '036000241457', '--release', 'r1']);
    expect(release.code).toBe(2);
    expect(release.stderr).toMatch(/--release needs --remote/);
  });

  it('reads codes piped in without -: `echo CODE | reldist validate upc`', async () => {
    const r = await run(['validate', 'upc'], { input: '036000241457\n="036000241457"\n' });
    expect(r.code).toBe(3);
    expect(rows(r.stdout).map((x) => x.slice(0, 3))).toEqual([
      ['036000241457', 'valid', '036000241457'],
      ['="036000241457"', 'invalid', ''],
    ]);
    expect(r.stderr).toMatch(/^checked 2, valid 1, invalid 1, warnings 0\nby problem: text_formula 1\n/);
  });

  it('streams a large input in order', async () => {
    const n = 200_000;
    const codes: string[] = [];
    for (let i = 0; i < n; i++) codes.push(i % 1000 === 7 ? 'x' : '036000241457');
    const r = await run(['validate', 'upc', '-', '--json'], { input: `${codes.join('\n')}\n` });
    expect(r.code).toBe(3);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBe(n + 1);
    expect(JSON.parse(lines[7]!).input).toBe('x');
    expect(JSON.parse(lines[8]!)).toMatchObject({ valid: true, line: 9, problems: [{ code: 'duplicate', message: 'the same code as line 1' }] });
    expect(JSON.parse(r.stderr.split('\n')[0]!)).toEqual({
      summary: { checked: n, valid: n - 200, invalid: 200, warnings: n - 201, empty: 0, problems: { duplicate: n - 201, bad_character: 200 } },
    });
  });
});

describe('validate isrc', () => {
  it('normalizes to the compact form and counts warnings without failing', async () => {
    const r = await run(['validate', 'isrc', 'us-rc1-76-07839', 'ISRC XXABC2000001']);
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual([
      ['us-rc1-76-07839', 'valid', 'USRC17607839', ''],
      ['ISRC XXABC2000001', 'valid', 'XXABC2000001', 'warning: prefix XX is neither an ISO 3166 country code nor a known ISRC agency prefix'],
    ]);
    expect(r.stderr).toBe('checked 2, valid 2, invalid 0, warnings 1\nby problem: unknown_prefix 1\n');
  });

  it('bulk from a file with --json: display and problems per line, exit 3 on an invalid one', async () => {
    const path = file('isrcs.txt', 'USRC17607839\r\n\r\nıTABC2300001\nUSRC1760783X\n');
    const r = await run(['validate', 'isrc', '--file', path, '--json']);
    expect(r.code).toBe(3);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toEqual({
      input: 'USRC17607839',
      valid: true,
      normalized: 'USRC17607839',
      kind: 'isrc',
      display: 'US-RC1-76-07839',
      problems: [],
      line: 1,
    });
    // Blank lines count: the third code is on line 4.
    expect(lines.map((l) => l.line)).toEqual([1, 3, 4]);
    expect((lines[1]!.problems as { code: string }[])[0]!.code).toBe('lookalike_letter');
    expect(lines[2]!.problems).toEqual([
      { code: 'bad_format', message: "position 12 must be a digit (designation), found 'X'", severity: 'error', position: 12, expected: 'digit' },
    ]);
  });
});
