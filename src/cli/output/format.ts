// Turning values into cell text. Pure: the same input gives the same text, in tests and for users.

export type Kind = 'text' | 'date' | 'status' | 'id' | 'number' | 'bool' | 'list';

export interface Column<T = Record<string, unknown>> {
  header: string;
  /** A field name (dotted for nested: `meta.total`) or a function of the row. */
  value: string | ((row: T) => unknown);
  kind?: Kind;
  /**
   * On a terminal too narrow for the table, columns with `drop` are hidden first, the highest
   * first (the table says which, on stderr); a column without it is hidden only as a last resort.
   */
  drop?: number;
  /**
   * Text a person reads, not copies (names, titles, descriptions): may end in … on a narrow
   * terminal. Without it the cell stays whole: ids, codes (UPC, ISRC), catalog numbers, URLs,
   * statuses, dates and numbers are never cut.
   */
  cut?: boolean;
}

/** 'terminal': for a person (relative dates, colour). 'plain': for a pipe (ISO dates, no colour). */
export type Mode = 'terminal' | 'plain';

export function pick(row: unknown, path: string): unknown {
  let v: unknown = row;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

export function cellValue<T>(row: T, col: Column<T>): unknown {
  return typeof col.value === 'function' ? col.value(row) : pick(row, col.value);
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from the service made safe for a terminal: tabs and line breaks become a space, every other
 * C0/C1 control character (an escape sequence starts with one) is shown as `\x1b`, never sent raw. Most text has none: tested first.
 */
export function visible(s: string): string {
  if (!CONTROL.test(s)) return s;
  // Line breaks and tabs would break a row: a space, as TSV cells always had.
  return s.replace(/[\t\r\n]+/g, ' ').replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** JSON text with C1 controls escaped too (JSON.stringify leaves U+0080–U+009F raw; C0 it escapes). */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return /[\u007f-\u009f]/.test(text) ? text.replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : text;
}

export function formatCell(v: unknown, kind: Kind | undefined, mode: Mode, now: Date): string {
  if (v === undefined || v === null || v === '') return mode === 'terminal' ? '-' : '';
  if (kind === 'date' || (kind === undefined && isIsoDate(v))) return formatDate(v, mode, now);
  if (Array.isArray(v)) return v.map((x) => formatCell(x, undefined, mode, now)).join(', ');
  if (typeof v === 'boolean') return mode === 'terminal' ? (v ? 'yes' : 'no') : String(v);
  if (typeof v === 'object') return jsonText(v);
  return visible(String(v));
}

function isIsoDate(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v);
}

/** Piped: the ISO timestamp as is. Terminal: how long ago, like gh. */
export function formatDate(v: unknown, mode: Mode, now: Date): string {
  const d = v instanceof Date ? v : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  if (mode === 'plain') return d.toISOString();
  return relativeTime(d, now);
}

export function relativeTime(d: Date, now: Date): string {
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  const future = s < 0;
  const a = Math.abs(s);
  const units: [number, string][] = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
    [Number.POSITIVE_INFINITY, 'year'],
  ];
  let n = a;
  let unit = 'second';
  for (const [size, name] of units) {
    unit = name;
    if (n < size) break;
    n = Math.floor(n / size);
  }
  if (a < 45) return future ? 'in a moment' : 'just now';
  const text = plural(n, unit);
  return future ? `in ${text}` : `${text} ago`;
}

/** A count and its noun: "1 track", "3 tracks" (every noun we count takes an s). */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Most cells have none: testing first avoids a replace (and a copy) per cell. */
const TSV_BREAKS = /[\t\r\n]/;

/** One TSV cell: tabs and line breaks would break the row, so they become spaces. */
export function tsvCell(s: string): string {
  return TSV_BREAKS.test(s) ? s.replace(/[\t\r\n]+/g, ' ') : s;
}

/** Column header for a field name: `catalog_number` → `CATALOG NUMBER`. */
export function headerOf(field: string): string {
  return field
    .replace(/[._]/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

/**
 * An id as --json prints it: a number, as the reference service issues them, whether it came from
 * the service or from the command line; an id that is not a whole number (another service's
 * opaque string) stays a string.
 */
export function jsonId(id: string | number): number | string {
  if (typeof id === 'number') return id;
  const n = /^[1-9]\d*$/.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(n) ? n : id;
}
