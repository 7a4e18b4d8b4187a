// The terminal view of `validate`: one table style from the first row to the last, made to
// stream. Column widths are fixed up front from the terminal's width (no layout pass over the
// rows, so each row is printed as soon as it is read), no borders, and a cell too long for its
// column wraps onto the row's next lines (a reason at its spaces): no row is cut and none is
// wider than the terminal. Past FIRST_ROWS codes only those with a problem are shown (the bulk
// path counts the valid ones), in the same columns, and the summary on stderr ends the run.
// Before this the first 200 rows were a boxed cli-table3 table (a layout pass costing most of a
// millisecond a row) and the rest fixed-width rows of another look.
import type { RemoteVerdict, Verdict, Where } from './format.js';
import { fixedOf, reasonText, tsvField } from './format.js';

/** Rows shown whatever their verdict, before only those with a problem are. */
export const FIRST_ROWS = 200;

export interface TableRows {
  add(input: string, v: Verdict, remote?: RemoteVerdict, at?: Where): void;
  /** What to print since the last call ('' when nothing). */
  render(): string;
  readonly pending: number;
  /** Past the first rows: only rows with a problem are shown (and valid codes may skip add). */
  readonly streaming: boolean;
  /** Marks the end of the first rows, once (add does it on its own; the bulk path before it takes over). */
  beginStream(): void;
}

export interface TableOptions {
  color: boolean;
  /** The service's verdict and reason follow ours (--remote). */
  remote: boolean;
  /** The input has line numbers (a file, stdin, a table): a leading Line column. */
  line: boolean;
  /** --fix: the code with its damage undone and that code's verdict. */
  fix: boolean;
  /** The terminal's columns, when known (else DEFAULT_WIDTH). */
  width?: number | undefined;
  /** At most how many lines the input has, when known: the Line column is as wide as that number. */
  lines?: number | undefined;
}

type Key = 'line' | 'input' | 'verdict' | 'normalized' | 'kind' | 'fixed' | 'reason' | 'service' | 'serviceReason';

interface Column {
  key: Key;
  head: string;
  width: number;
  /** Shares what the fixed columns leave (the reasons); wraps at spaces. */
  flex: boolean;
}

const GAP = '  ';
/** Where the width is not known (a terminal that does not say). */
export const DEFAULT_WIDTH = 120;
/** Below this, a reason is hard to read: less important columns go first. */
const READABLE_REASON = 24;
/** The narrowest a reason column gets. */
const MIN_REASON = 16;
/** The narrowest the Input column gets, on a terminal too narrow for the rest: a UPC written with spaces fits. */
const MIN_INPUT = 16;
/** A reason column wider than this is no easier to read. */
const MAX_REASON = 100;

// The one colour each verdict has (chalk's codes, without loading chalk: the view is printed
// before anything else needs it).
const ANSI = {
  green: ['\u001b[32m', '\u001b[39m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  bold: ['\u001b[1m', '\u001b[22m'],
};

/** The columns kept and their widths for `width` terminal columns (see the module's comment). */
export function layout(o: TableOptions): Column[] {
  const width = o.width ?? DEFAULT_WIDTH;
  const lineWidth = Math.max(4, String(o.lines ?? 9_999_999).length);
  let cols: Column[] = [
    ...(o.line ? [{ key: 'line' as const, head: 'Line', width: lineWidth, flex: false }] : []),
    { key: 'input', head: 'Input', width: 20, flex: false },
    { key: 'verdict', head: 'Verdict', width: 7, flex: false },
    { key: 'normalized', head: 'Normalized', width: 14, flex: false },
    { key: 'kind', head: 'Kind', width: 7, flex: false },
    // The fixed code and its verdict: a UPC-A or EAN-13, a space, "invalid".
    ...(o.fix ? [{ key: 'fixed' as const, head: 'Fixed', width: 20, flex: false }] : []),
    { key: 'reason', head: 'Reason', width: 0, flex: true },
    ...(o.remote
      ? [
          { key: 'service' as const, head: 'Service', width: 7, flex: false },
          { key: 'serviceReason' as const, head: 'Service reason', width: 0, flex: true },
        ]
      : []),
  ];
  const flexCount = o.remote ? 2 : 1;
  const left = () => width - cols.reduce((n, c) => n + c.width, 0) - GAP.length * (cols.length - 1);
  for (const optional of ['kind', 'normalized'] as const) {
    if (left() >= READABLE_REASON * flexCount) break;
    cols = cols.filter((c) => c.key !== optional);
  }
  // Still too little: the Input column gives some (a longer input wraps in its cell).
  const input = cols.find((c) => c.key === 'input')!;
  const short = READABLE_REASON * flexCount - left();
  if (short > 0) input.width = Math.max(MIN_INPUT, input.width - short);
  let rest = Math.max(MIN_REASON * flexCount, left());
  for (const c of cols) {
    if (!c.flex) continue;
    // With the service's columns, our reason takes three fifths of what is left.
    c.width = Math.min(MAX_REASON, c.key === 'reason' && o.remote ? Math.floor((rest * 3) / 5) : rest);
    rest -= c.width;
  }
  return cols;
}

/** `text` in lines of at most `width` code points: at spaces when `words`, else cut anywhere. */
export function wrap(text: string, width: number, words: boolean): string[] {
  const chars = [...text];
  if (chars.length <= width) return [text];
  const lines: string[] = [];
  let at = 0;
  while (at < chars.length) {
    let end = Math.min(chars.length, at + width);
    if (words && end < chars.length) {
      // The last space that keeps the line within the width; none: cut the word.
      let space = end;
      while (space > at && chars[space] !== ' ') space--;
      if (space > at) end = space;
    }
    lines.push(chars.slice(at, end).join('').trimEnd());
    at = end;
    while (words && chars[at] === ' ') at++;
  }
  return lines;
}

export function tableRows(o: TableOptions): TableRows {
  const cols = layout(o);
  const paint = (s: string, how: keyof typeof ANSI) => (o.color ? ANSI[how][0] + s + ANSI[how][1] : s);
  const verdictWord = (valid: boolean, warned: boolean) => (valid ? (warned ? 'warning' : 'valid') : 'invalid');
  const verdictColour = (word: string) => (word === 'valid' ? 'green' : word === 'warning' ? 'yellow' : 'red');
  let added = 0;
  let pending = 0;
  let text = '';
  let headed = false;
  let begun = false;

  /** One row: each cell wrapped in its column, the row as many lines as its tallest cell. */
  const row = (cells: Partial<Record<Key, string>>, colour: Partial<Record<Key, keyof typeof ANSI>> = {}) => {
    const wrapped = cols.map((c) => wrap(cells[c.key] ?? '', c.width, c.flex));
    const height = Math.max(...wrapped.map((w) => w.length));
    let out = '';
    for (let l = 0; l < height; l++) {
      let line = '';
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i]!;
        const part = wrapped[i]![l] ?? '';
        const last = i === cols.length - 1;
        const padded = last ? part : part + ' '.repeat(Math.max(0, c.width - [...part].length));
        const how = colour[c.key];
        line += (i === 0 ? '' : GAP) + (how && part !== '' ? paint(part, how) + padded.slice(part.length) : padded);
      }
      out += `${line.trimEnd()}\n`;
    }
    return out;
  };

  const head = () => {
    if (headed) return;
    headed = true;
    const cells: Partial<Record<Key, string>> = {};
    for (const c of cols) cells[c.key] = c.head;
    const line = row(cells);
    text += o.color ? `${paint(line.slice(0, -1), 'bold')}\n` : line;
  };

  const beginStream = () => {
    if (begun) return;
    begun = true;
    head();
    // Two short lines: each fits an 80-column terminal.
    text += `More than ${FIRST_ROWS} codes: from here on only those with a problem, as they come.\n(The summary counts them all; --json or a pipe gives every row.)\n`;
  };

  const add = (input: string, v: Verdict, remote?: RemoteVerdict, at?: Where) => {
    head();
    const warned = v.valid && v.problems.length > 0;
    const word = verdictWord(v.valid, warned);
    const cells: Partial<Record<Key, string>> = {
      line: at ? String(at.line) : '',
      input: tsvField(input),
      verdict: word,
      normalized: v.normalized ?? '',
      kind: v.kind ?? '',
      reason: reasonText(v.problems),
    };
    const colour: Partial<Record<Key, keyof typeof ANSI>> = { verdict: verdictColour(word) };
    if (o.fix) {
      const f = fixedOf(v);
      cells.fixed = f.fixed === null ? '' : `${tsvField(f.fixed)} ${f.valid ? 'valid' : 'invalid'}`;
    }
    if (remote) {
      const serviceWord = verdictWord(remote.valid, false);
      cells.service = serviceWord;
      cells.serviceReason = reasonText(remote.problems);
      colour.service = verdictColour(serviceWord);
    }
    text += row(cells, colour);
    pending++;
  };

  return {
    add(input, v, remote, at) {
      if (added++ < FIRST_ROWS) {
        add(input, v, remote, at);
        return;
      }
      beginStream();
      const problem = !v.valid || v.problems.length > 0 || (remote !== undefined && (!remote.valid || remote.problems.length > 0));
      if (problem) add(input, v, remote, at);
    },
    render() {
      const out = text;
      text = '';
      pending = 0;
      return out;
    },
    get pending() {
      return pending;
    },
    get streaming() {
      return added >= FIRST_ROWS;
    },
    beginStream,
  };
}
