// A template's second sheet of contributors (Believe's): one row per person and role, naming the
// release (catalog number or UPC) and the track positions they are credited on ("1", "1,3",
// "2-4", "all"). Read into credits per release; each row that cannot be read is a problem at its
// line of that sheet.
import { headerKey } from './columns.js';
import { cellText, readUpc } from './cells.js';
import { creditOf, KNOWN_ROLES, type Credit } from './credits.js';
import { columnLetter } from './find-header.js';
import type { RowProblem } from './map-rows.js';
import type { Sheet } from './read-rows.js';
import type { ContributorSheet } from './templates.js';

export interface SheetCredit {
  sheet: string | undefined;
  line: number;
  /** Catalog number as written, or a UPC (normalized). */
  release: { catalog: string } | { upc: string };
  positions: number[] | 'all';
  credit: Credit;
  /** "Track Position(s) (column B)", for a problem found when the release is built. */
  positionsColumn: string;
}

const HEADER_SCAN_ROWS = 20;

/** The contributor sheet among `sheets` (not the main one), or undefined when there is none. */
export function findContributorSheet(sheets: readonly Sheet[], main: Sheet, spec: ContributorSheet): Sheet | undefined {
  const names = new Set(spec.names.map(headerKey));
  return sheets.find((s) => s !== main && s.name !== undefined && names.has(headerKey(s.name)));
}

export function readContributorSheet(sheet: Sheet, spec: ContributorSheet, problems: RowProblem[]): { credits: SheetCredit[]; rows: number } {
  const want = (list: readonly string[]) => new Set(list.map(headerKey));
  const sets = { release: want(spec.release), positions: want(spec.positions), name: want(spec.name), role: want(spec.role) };
  let header = -1;
  let cols: Record<keyof typeof sets, number> | undefined;
  for (let r = 0; r < Math.min(sheet.rows.length, HEADER_SCAN_ROWS) && cols === undefined; r++) {
    const keys = sheet.rows[r]!.map((c) => headerKey(cellText(c)));
    const find = (s: Set<string>) => keys.findIndex((k) => s.has(k));
    const found = { release: find(sets.release), positions: find(sets.positions), name: find(sets.name), role: find(sets.role) };
    if (Object.values(found).every((i) => i >= 0)) {
      cols = found;
      header = r;
    }
  }
  if (cols === undefined) {
    problems.push({
      sheet: sheet.name,
      line: 1,
      column: undefined,
      code: 'no_header',
      message: `sheet "${sheet.name}" looks like a contributor sheet but has no header naming the release (${spec.release[0]}), the track positions, the name and the role; it was not read`,
      severity: 'error',
    });
    return { credits: [], rows: 0 };
  }
  const headerRow = sheet.rows[header]!;
  const named = (i: number) => `${cellText(headerRow[i])} (column ${columnLetter(i)})`;
  const releaseIsUpc = /upc|ean|barcode/.test(headerKey(cellText(headerRow[cols.release])));
  const credits: SheetCredit[] = [];
  let rows = 0;
  for (let r = header + 1; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r]!;
    if (cells.every((c) => cellText(c) === '')) continue;
    rows++;
    const line = sheet.lines[r]!;
    const bad = (col: number, code: string, message: string) =>
      problems.push({ sheet: sheet.name, line, column: named(col), code, message, severity: 'error' });
    const rel = cellText(cells[cols.release]);
    const name = cellText(cells[cols.name]);
    const role = cellText(cells[cols.role]);
    const pos = cellText(cells[cols.positions]);
    if (rel === '') {
      bad(cols.release, 'missing', 'no release named: the row cannot be placed');
      continue;
    }
    let release: SheetCredit['release'];
    if (releaseIsUpc) {
      const upc = readUpc(cells[cols.release]);
      if (!upc.ok) {
        bad(cols.release, upc.problem.code, upc.problem.message);
        continue;
      }
      release = { upc: upc.value };
    } else release = { catalog: rel };
    if (name === '') {
      bad(cols.name, 'missing', 'no name');
      continue;
    }
    const credit = creditOf(role, name);
    if (!credit) {
      bad(cols.role, 'bad_value', `"${role}" is not a role (${KNOWN_ROLES})`);
      continue;
    }
    const positions = parsePositions(pos);
    if (positions === undefined) {
      bad(cols.positions, 'bad_value', `"${pos}" is not track positions (1, 1,3, 2-4 or all)`);
      continue;
    }
    credits.push({ sheet: sheet.name, line, release, positions, credit, positionsColumn: named(cols.positions) });
  }
  return { credits, rows };
}

/** "1", "1, 3", "2-4", "1;2", "all" (blank: all). */
export function parsePositions(s: string): number[] | 'all' | undefined {
  const t = s.trim().toLowerCase();
  if (t === '' || t === 'all' || t === '*') return 'all';
  const out: number[] = [];
  for (const part of t.split(/[,;/\s]+/).filter((p) => p !== '')) {
    const range = /^(\d{1,3})(?:\.0+)?(?:-(\d{1,3}))?$/.exec(part);
    if (!range) return undefined;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < 1 || to < from || to - from > 999) return undefined;
    for (let p = from; p <= to; p++) out.push(p);
  }
  return out.length > 0 ? out : undefined;
}
