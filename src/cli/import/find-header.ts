// Finds a spreadsheet's header row wherever it is (a template's title and instructions above it,
// merged group headers, data from line 8) and which template it is, from the headers alone: the
// row that names the most fields, in the sheet that has such a row. Then each column's field, the
// template's own headers first, the generic synonyms after; a column that maps to nothing, or to
// a field another column already gives, is named as not mapped.
import { FIELDS, FIELD_WORDS, GENERIC_HEADERS, headerKey, type Field } from './columns.js';
import type { CellValue, Sheet } from './read-rows.js';
import { GENERIC, TEMPLATES, type Template } from './templates.js';

/** Rows looked at for the header: a template's preamble is a few lines, never pages. */
const HEADER_SCAN_ROWS = 50;
/** Fields a row must name to be taken for the header. */
const MIN_HEADER_FIELDS = 3;
/** A template's own headers (not generic synonyms) that must be present for `auto` to choose it. */
const MIN_OWN_HEADERS = 3;

export interface Column {
  index: number;
  /** As written in the header row ("" when it has none). */
  header: string;
  /** A1-style letter: "A", "AB". */
  letter: string;
}

export interface UnmappedColumn extends Column {
  reason: string;
}

export interface Layout {
  sheet: Sheet;
  /** Index of the header row in sheet.rows. */
  headerRow: number;
  template: Template;
  /** The column each field is read from. */
  fields: Map<Field, Column>;
  unmapped: UnmappedColumn[];
}

const GENERIC_KEYS = keysOf(GENERIC_HEADERS);
const ALL_KEYS = new Set([...GENERIC_KEYS.keys(), ...Object.values(TEMPLATES).flatMap((t) => [...keysOf(t.headers).keys()])]);

function keysOf(headers: Partial<Record<Field, readonly string[]>>): Map<string, Field> {
  const out = new Map<string, Field>();
  for (const field of FIELDS) for (const h of headers[field] ?? []) if (!out.has(headerKey(h))) out.set(headerKey(h), field);
  return out;
}

export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const text = (v: CellValue) => (v === undefined ? '' : String(v).trim());

/** The header row and template of the file, or undefined when no sheet has a row naming enough fields. */
export function findLayout(sheets: readonly Sheet[], chosen: Template | undefined): Layout | undefined {
  let best: { sheet: Sheet; row: number; score: number } | undefined;
  for (const sheet of sheets) {
    const end = Math.min(sheet.rows.length, HEADER_SCAN_ROWS);
    for (let r = 0; r < end; r++) {
      const keys = new Set(sheet.rows[r]!.map((c) => headerKey(text(c))).filter((k) => k !== '' && ALL_KEYS.has(k)));
      if (keys.size >= MIN_HEADER_FIELDS && (best === undefined || keys.size > best.score)) best = { sheet, row: r, score: keys.size };
    }
  }
  if (best === undefined) return undefined;
  const headers = best.sheet.rows[best.row]!.map(text);
  const template = chosen ?? detectTemplate(headers);
  const { fields, unmapped } = mapColumns(headers, template);
  // Columns without a header that hold data are named too: nothing is dropped in silence.
  const data = best.sheet.rows.slice(best.row + 1);
  let width = headers.length;
  for (const r of data) if (r.length > width) width = r.length;
  for (let c = 0; c < width; c++) {
    if (headers[c]) continue;
    if (data.some((r) => text(r[c]) !== '')) unmapped.push({ index: c, header: '', letter: columnLetter(c), reason: 'no header' });
  }
  unmapped.sort((a, b) => a.index - b.index);
  return { sheet: best.sheet, headerRow: best.row, template, fields, unmapped };
}

/** The named template whose own headers (those no generic synonym reads) the row has most of; generic when none has enough. */
export function detectTemplate(headers: readonly string[]): Template {
  const keys = new Set(headers.map(headerKey));
  let best: { t: Template; n: number } | undefined;
  for (const t of Object.values(TEMPLATES)) {
    const own = [...keysOf(t.headers).keys()].filter((k) => !GENERIC_KEYS.has(k));
    const n = own.filter((k) => keys.has(k)).length;
    if (n >= MIN_OWN_HEADERS && (best === undefined || n > best.n)) best = { t, n };
  }
  return best?.t ?? GENERIC;
}

function mapColumns(headers: readonly string[], template: Template): { fields: Map<Field, Column>; unmapped: UnmappedColumn[] } {
  const fields = new Map<Field, Column>();
  const taken = new Set<number>();
  // The template's own headers first: its "Track Title" wins over a generic "Title" elsewhere.
  for (const table of [keysOf(template.headers), GENERIC_KEYS]) {
    headers.forEach((h, index) => {
      if (h === '' || taken.has(index)) return;
      const field = table.get(headerKey(h));
      if (field === undefined || fields.has(field)) return;
      fields.set(field, { index, header: h, letter: columnLetter(index) });
      taken.add(index);
    });
  }
  const unmapped: UnmappedColumn[] = [];
  headers.forEach((h, index) => {
    if (h === '' || taken.has(index)) return;
    const field = GENERIC_KEYS.get(headerKey(h)) ?? keysOf(template.headers).get(headerKey(h));
    const reason =
      field !== undefined && fields.has(field)
        ? `the ${FIELD_WORDS[field]} is read from column ${fields.get(field)!.letter} (${fields.get(field)!.header})`
        : 'no field of a release file';
    unmapped.push({ index, header: h, letter: columnLetter(index), reason });
  });
  return { fields, unmapped };
}
