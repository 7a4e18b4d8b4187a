// The terminal view of `validate`: a table (then streamed rows) no wider than the terminal.
import { describe, expect, it } from 'vitest';
import { checkIsrc, checkUpc } from '../../src/codes/index.js';
import { FIRST_ROWS, tableRows } from '../../src/cli/commands/validate/table.js';

const YEAR = { currentYear: 2026 };
const inputs = ['036000241457', '3.6E+11', '36000241457.0', '"036000241457"', '9780306406157', '12345678901'];
/** Shown width: code points, without colours. */
const shown = (line: string) => [...line.replace(/\u001b\[[0-9;]*m/g, '')].length;

async function render(width: number | undefined, rows: number, remote = false): Promise<string> {
  const view = await tableRows(false, remote, true, width);
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
    view.add(input, checkUpc(input), remote ? answer : undefined, { line: i + 1 });
  }
  return view.render();
}

describe('validate on a terminal', () => {
  const tooWide = (text: string, width: number) => text.split('\n').filter((l) => shown(l) > width);

  it.each([80, 100, 140])('fits %i columns, table and streamed rows alike', async (width) => {
    expect(tooWide(await render(width, FIRST_ROWS + 12), width)).toEqual([]);
  });

  it.each([100, 140])("fits %i columns with the service's columns too", async (width) => {
    expect(tooWide(await render(width, FIRST_ROWS + 12, true), width)).toEqual([]);
  });

  it('fits its first table into 60 columns (streamed rows keep a readable reason and may be wider)', async () => {
    expect(tooWide(await render(60, 12), 60)).toEqual([]);
  });

  it('keeps Code and Kind where there is room, and leaves them out on a narrow terminal', async () => {
    const wide = await render(140, 3);
    expect(wide.split('\n')[1]).toMatch(/Line.*Input.*Verdict.*Code.*Kind.*Reason/);
    const narrow = await render(80, 3);
    expect(narrow.split('\n')[1]).toMatch(/Line.*Input.*Verdict.*Reason/);
    expect(narrow).not.toMatch(/Kind/);
    // The reason wraps within its cell: every word of it is still there.
    expect(narrow.replace(/[│\s]+/g, ' ')).toContain("'.' at position 2 is not a digit; 'E' at position 4 is not a digit; '+' at position 5 is not a digit");
  });

  it("cuts a streamed row's reason with an ellipsis, and leaves rows whole without a known width", async () => {
    const streamed = (await render(80, FIRST_ROWS + 6)).split('\n').slice(-7, -1);
    expect(streamed.some((l) => l.endsWith('…'))).toBe(true);
    const unknown = (await render(undefined, FIRST_ROWS + 6)).split('\n').slice(-7, -1);
    expect(unknown.join('\n')).toContain("'E' at position 4 is not a digit; '+' at position 5 is not a digit");
    expect(unknown.join('\n')).toMatch(/ean-13/);
  });

  it('shows ISRCs with their display form when there is room', async () => {
    const view = await tableRows(false, false, false, 120);
    view.add('usrc17607839', checkIsrc('usrc17607839', YEAR));
    expect(view.render()).toContain('US-RC1-76-07839');
  });
});
