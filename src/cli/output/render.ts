// Renders lists and records to text: a table for a terminal, tab-separated rows for a pipe.
// cli-table3 and chalk are loaded only when a terminal table is drawn.
import { cellValue, formatCell, tsvCell, type Column, type Kind, type Mode } from './format.js';
import { lazy } from '../lazy.js';
import { fitColumns, truncate } from './fit.js';
import { wrapText } from './wrap.js';

export interface RenderOptions {
  mode: Mode;
  color: boolean;
  now: Date;
  /** The terminal's width: a table wider than this drops columns and truncates cells. */
  width?: number | undefined;
  /** Told the headers of the columns a table left out to fit `width` (the caller says so on stderr). */
  onHidden?: ((headers: string[]) => void) | undefined;
}

/** The gap between a table's columns. */
const GAP = '  ';

type Paint = (kind: Kind | undefined, raw: unknown, text: string) => string;

async function painter(color: boolean): Promise<{ paint: Paint; bold: (s: string) => string; dim: (s: string) => string }> {
  if (!color) return { paint: (_k, _r, t) => t, bold: (s) => s, dim: (s) => s };
  const { Chalk } = await lazy.chalk();
  // A fixed level: what we print must not depend on how chalk guesses the terminal.
  const c = new Chalk({ level: 1 });
  const status: Record<string, (s: string) => string> = {
    draft: c.gray,
    in_review: c.yellow,
    approved: c.cyan,
    rejected: c.red,
    delivered: c.blue,
    live: c.green,
    taken_down: c.magenta,
    pending: c.yellow,
    ready: c.green,
    valid: c.green,
    invalid: c.red,
    error: c.red,
    warning: c.yellow,
  };
  return {
    paint: (kind, raw, text) => {
      if (kind === 'status' && typeof raw === 'string') return (status[raw] ?? ((s: string) => s))(text);
      if (kind === 'id') return c.cyan(text);
      if (kind === 'date') return c.dim(text);
      return text;
    },
    bold: c.bold,
    dim: c.dim,
  };
}

export async function renderList<T>(rows: readonly T[], columns: readonly Column<T>[], opts: RenderOptions): Promise<string> {
  if (opts.mode === 'plain') {
    // No header when piped (like gh): every line is a record, ready for cut/awk.
    return rows.map((r) => columns.map((c) => tsvCell(formatCell(cellValue(r, c), c.kind, 'plain', opts.now))).join('\t') + '\n').join('');
  }
  const { paint, bold } = await painter(opts.color);
  const { default: Table } = await lazy.table();
  const raws = rows.map((r) => columns.map((c) => cellValue(r, c)));
  let texts = raws.map((raw) => raw.map((v, i) => formatCell(v, columns[i]!.kind, 'terminal', opts.now)));
  let keep = columns.map((_, i) => i);
  let heads = columns.map((c) => c.header);
  if (opts.width !== undefined && opts.width > 0) {
    const fitted = fitColumns(
      columns.map((c) => ({ header: c.header, drop: c.drop, cut: c.cut })),
      texts,
      opts.width,
      GAP.length,
    );
    keep = fitted.keep;
    if (fitted.hidden.length > 0) opts.onHidden?.(fitted.hidden.map((i) => columns[i]!.header));
    heads = keep.map((i, k) => truncate(columns[i]!.header, fitted.widths[k]!));
    texts = texts.map((t) => keep.map((i, k) => truncate(t[i]!, fitted.widths[k]!)));
  } else {
    texts = texts.map((t) => keep.map((i) => t[i]!));
  }
  const table = new Table({
    head: heads.map((h) => bold(h)),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: GAP,
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  texts.forEach((t, r) => table.push(t.map((text, k) => paint(columns[keep[k]!]!.kind, raws[r]![keep[k]!], text))));
  // cli-table3 pads the last column too; trailing blanks are noise in a terminal and in goldens.
  return (
    table
      .toString()
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''))
      .join('\n') + '\n'
  );
}

export interface Field<T = Record<string, unknown>> extends Column<T> {}

export async function renderRecord<T>(value: T, fields: readonly Field<T>[], opts: RenderOptions): Promise<string> {
  if (opts.mode === 'plain') {
    return fields.map((f) => `${f.header}\t${tsvCell(formatCell(cellValue(value, f), f.kind, 'plain', opts.now))}\n`).join('');
  }
  const { paint, bold } = await painter(opts.color);
  const width = Math.max(0, ...fields.map((f) => f.header.length));
  // Long text (a review's notes, a cover's URL and facts) wraps under its value column, at word
  // boundaries; a word longer than the room (a URL) stays whole.
  const hang = ' '.repeat(width + 3);
  return fields
    .map((f) => {
      const raw = cellValue(value, f);
      const label = `${f.header}:`.padEnd(width + 1);
      const text = formatCell(raw, f.kind, 'terminal', opts.now);
      const painted = paint(f.kind, raw, text);
      const room = opts.width === undefined ? 0 : opts.width - hang.length;
      const shown = painted === text && room > 0 ? wrapText(text, room, '').replaceAll('\n', `\n${hang}`) : painted;
      return `${bold(label)}  ${shown}\n`;
    })
    .join('');
}
