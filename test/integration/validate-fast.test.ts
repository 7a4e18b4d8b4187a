// The bulk path of `reldist validate` (fast.ts, invalid-lines.ts) against the general path
// (every line decoded, checked and formatted one by one, RELDIST_VALIDATE_GENERAL_PATH set) on a
// generated file of every sort of line: the same stdout and stderr, byte for byte, in every mode.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upcCheckDigit } from '../../src/codes/index.js';
import { GENERAL_PATH_ENV } from '../../src/cli/commands/validate/check-codes.js';
import { useCli } from './cli-harness.js';

const cli = useCli();
const dir = mkdtempSync(join(tmpdir(), 'reldist-validate-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A mixed list: valid, loosely written, repeated, warned, invalid in every known way, damaged, blank, odd. */
function mixed(kind: 'upc' | 'isrc', n: number): string {
  const random = rng(kind === 'upc' ? 1 : 2);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const upc = (first = pick(['0', '1', '6', '7', '8', '2', '9'])) => {
    const data = first + String(Math.floor(random() * 1e10)).padStart(10, '0');
    return data + upcCheckDigit(data);
  };
  const isrc = () =>
    pick(['US', 'GB', 'XX', 'QZ']) +
    Array.from({ length: 3 }, () => pick([...'ABCXYZ019'])).join('') +
    String(Math.floor(random() * 40)).padStart(2, '0') +
    String(Math.floor(random() * 1e5)).padStart(5, '0');
  const seen: string[] = [];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const code = kind === 'upc' ? upc() : isrc();
    if (i % 7 !== 0) seen.push(code);
    const r = random();
    const line =
      r < 0.35
        ? code
        : r < 0.4
          ? seen.length > 0
            ? pick(seen)
            : code
          : r < 0.45
            ? kind === 'upc'
              ? `${code.slice(0, 1)} ${code.slice(1, 6)}-${code.slice(6)}`
              : `${code.slice(0, 2).toLowerCase()}-${code.slice(2, 5)}-${code.slice(5, 7)}-${code.slice(7)}`
            : r < 0.55
              ? code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10)
              : r < 0.6
                ? code.slice(0, 4) + code.slice(5)
                : r < 0.65
                  ? `${code.slice(0, 3)}O${code.slice(4)}`
                  : r < 0.7
                    ? `"${code}"`
                    : r < 0.73
                      ? `'${code}`
                      : r < 0.76
                        ? kind === 'upc'
                          ? `${code[1]}.${code.slice(2, 7)}E+11`
                          : `${code.slice(0, 2)}/${code.slice(2)}`
                        : r < 0.8
                          ? kind === 'upc'
                            ? `${String(Number(code))}.0`
                            : `"${code.slice(0, 11)}"`
                          : r < 0.83
                            ? kind === 'upc'
                              ? upc('0').slice(1)
                              : `ISRC ${code}`
                            : r < 0.85
                              ? pick(['', '  ', '\t', 'x', '０１２', '"a\\b"', 'US‐RC1760783', '"036000241457', '1,234,567', 'ıTABC2300001', '000000000000'])
                              : r < 0.88
                                ? // Excel's text formula, bare and CSV-quoted, around a good or a bad code; odd spaces.
                                  pick([
                                    `="${code}"`,
                                    `"=""${code}"""`,
                                    `="${code.slice(0, -1)}X"`,
                                    `="${code.slice(1)}"`,
                                    `${code}\u00a0`,
                                    `${code.slice(0, 4)}\u202f${code.slice(4)}`,
                                  ])
                                : code;
    lines.push(line + (random() < 0.1 ? '\r\n' : '\n'));
  }
  return `\ufeff${lines.join('')}`;
}

describe('validate: the bulk path says what the general path says', () => {
  for (const kind of ['upc', 'isrc'] as const) {
    it(`${kind}: JSON, rows, --invalid-only and --fix, byte for byte, summary included`, async () => {
      const path = join(dir, `${kind}.txt`);
      // Over 64 KiB: several chunks, with lines cut between them.
      writeFileSync(path, mixed(kind, 12_000));
      for (const flags of [['--json'], [], ['--json', '--invalid-only'], ['--invalid-only'], ['--fix'], ['--json', '--fix']]) {
        const argv = ['validate', kind, '--file', path, ...flags];
        const fast = await cli.run(argv);
        const general = await cli.run(argv, { env: { [GENERAL_PATH_ENV]: '1' } });
        expect(fast.code, fast.stderr).toBe(3);
        expect(fast.stderr).toBe(general.stderr);
        expect(fast.stdout === general.stdout, `${flags.join(' ')}: stdout differs`).toBe(true);
      }
    }, 60_000);
  }

  it('a code repeated within one batch of lines is first where it first appears, whichever path took that line', async () => {
    // The bulk path adds a batch's bare codes ahead of its other lines: a loosely written code, or
    // one the general path takes (a warning, a BOM, "ISRC "), before the same bare code must stay
    // its first place.
    const cases = {
      upc: ['0 36000 29145 2', '036000291452', '212345678903', '212345678903', '036000241457', '0-36000-24145-7', '\ufeff4006381333931', '4006381333931'],
      isrc: ['us-rc1-76-07839', 'USRC17607839', 'ISRC GBAYE0000351', 'GBAYE0000351', 'QZABC2400001', 'qzabc2400001', 'XXABC2400001', 'XXABC2400001'],
    };
    for (const kind of ['upc', 'isrc'] as const) {
      const path = join(dir, `batch-${kind}.txt`);
      // Filler between, so that the pairs fall in one batch, and across batch boundaries too.
      const filler = kind === 'upc' ? '036000291452' : 'USRC17607839';
      const lines = Array.from({ length: 300 }, (_, i) =>
        i % 37 < cases[kind].length ? cases[kind][i % 37]! : `${filler.slice(0, 10)}${String(i).padStart(2, '0')}`,
      );
      writeFileSync(path, `${lines.join('\n')}\n`);
      for (const flags of [['--json'], []]) {
        const argv = ['validate', kind, '--file', path, ...flags];
        const fast = await cli.run(argv);
        const general = await cli.run(argv, { env: { [GENERAL_PATH_ENV]: '1' } });
        expect(fast.stderr).toBe(general.stderr);
        expect(fast.stdout).toBe(general.stdout);
        expect(general.stdout).toContain('the same code as line 1');
      }
    }
  }, 60_000);

  it('a file of repeated codes (a catalog naming a track on each of its releases): the warning, its first line and the summary as the general path gives them', async () => {
    const codes = {
      upc: ['036000291452', '4006381333931', '00012345678905', '212345678903'],
      isrc: ['USRC17607839', 'GBAYE0000351', 'QZABC2400001', 'XXABC2400001'],
    };
    for (const kind of ['upc', 'isrc'] as const) {
      const path = join(dir, `repeated-${kind}.txt`);
      // Every code three times, far apart: line numbers and first places of every width up to 4 digits.
      const lines = Array.from({ length: 1500 }, (_, i) =>
        i % 5 === 0 ? codes[kind][i % 4]! : `${codes[kind][0]!.slice(0, 8)}${String(i % 500).padStart(4, '0')}`,
      );
      writeFileSync(path, `${lines.join('\n')}\n`);
      // The first argument is the file's first code: its repeats name "code 1", not a line.
      for (const flags of [['--json'], [], ['--invalid-only'], [codes[kind][0]!, '--json']]) {
        const argv = ['validate', kind, '--file', path, ...flags];
        const fast = await cli.run(argv);
        const general = await cli.run(argv, { env: { [GENERAL_PATH_ENV]: '1' } });
        expect(fast.stderr).toBe(general.stderr);
        expect(fast.stdout === general.stdout, `${kind} ${flags.join(' ')}: stdout differs`).toBe(true);
      }
      expect((await cli.run(['validate', kind, '--file', path, '--json'])).stdout).toMatch(
        /"message":"the same code as line \d{3}","severity":"warning"}\],"line":\d{4}}/,
      );
    }
  }, 60_000);

  it('more kinds of damaged line than the bulk path keeps made (20,000): the rest through the general path, the same output', async () => {
    // Two letters at different places in each UPC: each line its own sequence of problems.
    const path = join(dir, 'shapes.txt');
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const lines: string[] = [];
    for (let i = 0; lines.length < 24_000; i++) {
      const at = 1 + (i % 11);
      const chars = [...'036000291452'];
      chars[at - 1] = letters[i % 52]!;
      chars[at] = letters[Math.floor(i / 52) % 52]!;
      lines.push(chars.join(''));
    }
    expect(new Set(lines).size).toBeGreaterThan(20_000);
    writeFileSync(path, `${lines.join('\n')}\n`);
    for (const flags of [['--json'], []]) {
      const argv = ['validate', 'upc', '--file', path, ...flags];
      const fast = await cli.run(argv);
      const general = await cli.run(argv, { env: { [GENERAL_PATH_ENV]: '1' } });
      expect(fast.stderr).toBe(general.stderr);
      expect(fast.stdout === general.stdout, `${flags.join(' ')}: stdout differs`).toBe(true);
    }
  }, 60_000);

  it('JSON stays one line per code, in input order, each with its line number', async () => {
    const path = join(dir, 'order.txt');
    const text = mixed('upc', 3000);
    writeFileSync(path, text);
    const r = await cli.run(['validate', 'upc', '--file', path, '--json', '--quiet']);
    const lines = r.stdout
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l) as { input: string; line: number });
    const expected = text
      .slice(1)
      .split('\n')
      .slice(0, -1)
      .map((l, i) => ({ input: l.replace(/\r$/, ''), line: i + 1 }))
      .filter((l) => l.input.trim() !== '');
    expect(lines.map((l) => ({ input: l.input, line: l.line }))).toEqual(expected);
  });
});
