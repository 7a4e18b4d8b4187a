// The terminal view of `validate`: one streaming table style from the first row to the last, no
// wider than the terminal, every word of every reason kept.
import { describe, expect, it } from 'vitest';
import { checkIsrc, checkUpc, diagnoseDamage } from '../../src/codes/index.js';
import type { Verdict } from '../../src/cli/commands/validate/format.js';
import { FIRST_ROWS, layout, tableRows, wrap } from '../../src/cli/commands/validate/table.js';

const YEAR = { currentYear: 2026 };
const inputs = ['036000241457', '3.6E+11', '36000241457.0', '"036000241457"', '9780306406157', '12345678901', '="036000241457"'];
/** Shown width: code points, without colours. */
const shown = (line: string) => [...line.replace(/\u001b\[[0-9;]*m/g, '')].length;

/** What check-codes gives a UPC: the engine's verdict, with the damage named. */
function verdict(input: string): Verdict {
  const v = checkUpc(input);
  const d = v.valid ? undefined : diagnoseDamage(input, 'upc', YEAR);
  return d ? { ...v, problems: d.problems, repaired: d.repaired, fixed: d.fixed } : v;
}

function render(width: number | undefined, rows: number, { remote = false, fix = false, color = false } = {}): string {
  const view = tableRows({ color, remote, line: true, fix, width });
  for (let i = 0; i < rows; i++) {
    const input = inputs[i % inputs.length]!;
    const answer = {
      kind: 'upc' as const,
      input,
      valid: false,
      normalized: null,
      display: null,
      problems: [{ code: 'upc_in_use', message: 'already the UPC of release rel_123 (Another Album)', severity: 'error' as const }],
    };
    view.add(input, verdict(input), remote ? answer : undefined, { line: i + 1 });
  }
  return view.render();
}

describe('validate on a terminal', () => {
  const tooWide = (text: string, width: number) => text.split('\n').filter((l) => shown(l) > width);

  it.each([80, 100, 140, 200])('fits %i columns, the first rows and the streamed ones alike, with --fix too', (width) => {
    expect(tooWide(render(width, FIRST_ROWS + 12), width)).toEqual([]);
    expect(tooWide(render(width, FIRST_ROWS + 12, { fix: true, color: true }), width)).toEqual([]);
  });

  it.each([100, 140])("fits %i columns with the service's columns too", (width) => {
    expect(tooWide(render(width, FIRST_ROWS + 12, { remote: true }), width)).toEqual([]);
  });

  it('one style throughout: the header once, the same columns before and after the first rows', () => {
    const text = render(100, FIRST_ROWS + 14);
    const lines = text.split('\n');
    expect(lines.filter((l) => /^Line +Input/.test(l))).toHaveLength(1);
    expect(text).not.toMatch(/[│┌└─]/);
    const at = (line: number) => lines.find((l) => l.startsWith(`${line} `))!;
    // Line 2 (3.6E+11) and line 205 (the same input, after the first rows) start the same way.
    expect(at(FIRST_ROWS + 5).indexOf('invalid')).toBe(at(2).indexOf('invalid'));
    expect(text).toContain('More than 200 codes: from here on only those with a problem');
    // Past the first rows, valid codes are counted, not shown.
    expect(lines.some((l) => l.startsWith(`${FIRST_ROWS + 4} `))).toBe(false);
  });

  it('keeps Normalized and Kind where there is room, and leaves them out on a narrow terminal; reasons wrap whole', () => {
    const wide = render(200, 3);
    expect(wide.split('\n')[0]).toMatch(/^Line +Input +Verdict +Normalized +Kind +Reason$/);
    const narrow = render(80, 3);
    expect(narrow.split('\n')[0]).toMatch(/^Line +Input +Verdict +Normalized +Reason$/);
    expect(narrow).not.toMatch(/Kind/);
    const words = (s: string) => s.replace(/\s+/g, ' ');
    expect(words(narrow)).toContain('3.6E+11 is scientific notation: the spreadsheet kept only the first digits and the rest are lost');
    expect(words(render(80, 3, { fix: true }))).toMatch(/^Line Input Verdict Fixed Reason /);
  });

  it('Normalized is the compact form: an ISRC without hyphens', () => {
    const view = tableRows({ color: false, remote: false, line: false, fix: false, width: 120 });
    view.add('us-rc1-76-07839', checkIsrc('us-rc1-76-07839', YEAR));
    const text = view.render();
    expect(text).toContain('USRC17607839');
    expect(text).not.toContain('US-RC1-76-07839');
  });

  it('--fix: the fixed code with its own verdict, the input verdict and Normalized untouched', () => {
    const text = render(200, 7, { fix: true });
    const row = text.split('\n').find((l) => l.startsWith('7 '))!;
    expect(row).toMatch(/^7 +="036000241457" +invalid +036000241457 valid +Excel's text formula/);
    expect(text.split('\n').find((l) => l.startsWith('2 '))).toMatch(/^2 +3\.6E\+11 +invalid {2,}3\.6E\+11 is scientific/);
  });

  it('the Line column is as wide as the largest line number the input can have', () => {
    expect(layout({ color: false, remote: false, line: true, fix: false, width: 80, lines: 120 })[0]).toMatchObject({ key: 'line', width: 4 });
    expect(layout({ color: false, remote: false, line: true, fix: false, width: 80, lines: 123_456 })[0]).toMatchObject({ key: 'line', width: 6 });
  });

  it('wraps at spaces, and cuts a word longer than the column', () => {
    expect(wrap('check digit is 8, it should be 7', 16, true)).toEqual(['check digit is', '8, it should be', '7']);
    expect(wrap('"=""036000241457"""', 16, false)).toEqual(['"=""036000241457', '"""']);
  });
});
