// The terminal view, loaded only when stdout is a terminal. The first FIRST_ROWS codes are a table
// (cli-table3, chalk), as a short input always was. Past them the view streams: the table is
// printed at once, then only the codes with a problem (invalid, or a warning), one fixed-width
// row each as it comes (widths fixed up front, no layout pass), while the valid ones are only
// counted (the bulk path takes them) and the summary on stderr ends the run. A cli-table3 table
// costs most of a millisecond per row: 200,000 rows took minutes before anything was printed.
import type { RemoteVerdict, Verdict, Where } from './format.js';
import { reasonText, tsvField } from './format.js';
import { lazy } from '../../lazy.js';
import { textWidth, truncate } from '../../output/fit.js';

/** Rows shown in full, as a table, before the view streams. */
export const FIRST_ROWS = 200;

export interface TableRows {
  add(input: string, v: Verdict, remote?: RemoteVerdict, at?: Where): void;
  /** What to print since the last call ('' when nothing). */
  render(): string;
  readonly pending: number;
  /** Past the first rows: only rows with a problem are shown (and valid codes may skip add). */
  readonly streaming: boolean;
  /** Prints the first rows' table and the streamed rows' header, once (add does it on its own; the bulk path before it takes over). */
  beginStream(): void;
}

// Streamed columns: Line, Input, Verdict, Code, Kind, then the reason (unbounded, last, unless
// the service's columns follow).
const WIDTH = { line: 7, input: 20, verdict: 15, code: 15, kind: 7, reason: 60, service: 7 };

/** `s` in exactly `width` columns: padded, or cut with an ellipsis. */
function cell(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

/** The narrowest a reason column gets on a narrow terminal (it wraps within its cell). */
const MIN_REASON = 16;
/** Below this, a reason is hard to read: less important columns go first. */
const READABLE_REASON = 24;
/** A cell's text as shown, without its colours. */
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * `withLine`: the input has line numbers (a file, stdin, a table), shown in a leading Line column.
 * `width`: the terminal's columns, when known: the table's reasons wrap (and streamed rows' last
 * reason is cut) so that no line is wider.
 */
export async function tableRows(color: boolean, withRemote: boolean, withLine = false, width?: number): Promise<TableRows> {
  const { default: Table } = await lazy.table();
  const chalk = color ? (await lazy.chalk()).default : undefined;
  const paint = (s: string, how: 'green' | 'red' | 'yellow') => (chalk ? chalk[how](s) : s);
  const verdictText = (valid: boolean, warned: boolean) => (valid ? (warned ? 'valid (warning)' : 'valid') : 'invalid');
  const verdictPaint = (valid: boolean, warned: boolean, text: string) => paint(text, valid ? (warned ? 'yellow' : 'green') : 'red');
  const verdictCell = (valid: boolean, warned: boolean) => verdictPaint(valid, warned, verdictText(valid, warned));
  const head = ['Input', 'Verdict', 'Code', 'Kind', 'Reason'];
  if (withRemote) head.push('Service', 'Service reason');
  if (withLine) head.unshift('Line');
  let rows: string[][] = [];
  let added = 0;
  let text = '';
  let begun = false;
  const beginStream = () => {
    if (begun) return;
    begun = true;
    text += tableText() + streamHead();
  };

  const tableText = () => {
    if (rows.length === 0) return '';
    const fit = width === undefined ? undefined : fitted(width);
    const table = new Table({
      head: fit ? fit.keep.map((i) => head[i]!) : head,
      style: { head: chalk ? ['bold'] : [], border: [] },
      wordWrap: true,
      colWidths: fit ? fit.widths : [...(withLine ? [null] : []), ...(withRemote ? [null, null, null, null, 40, null, 30] : [null, null, null, null, 60])],
    } as ConstructorParameters<typeof Table>[0]);
    table.push(...(fit ? rows.map((r) => fit.keep.map((i) => r[i] ?? '')) : rows));
    rows = [];
    return `${table.toString()}\n`;
  };

  /**
   * The columns kept and their widths (padding included) for `width` terminal columns: every
   * column but the reasons as wide as its widest cell, the reasons sharing what is left (at most
   * what their longest text needs); the borders take a column each, and one more. When that
   * leaves a reason too little to read, Kind goes, then Code (the input shows the code too).
   */
  const fitted = (width: number): { keep: number[]; widths: number[] } => {
    const reasons = [head.indexOf('Reason'), head.indexOf('Service reason')].filter((i) => i >= 0);
    const natural = head.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(plain(r[i] ?? '')))) + 2);
    let keep = head.map((_, i) => i);
    const left = () => width - keep.reduce((n, i) => (reasons.includes(i) ? n : n + natural[i]!), 0) - (keep.length + 1);
    for (const optional of ['Kind', 'Code']) {
      if (left() >= READABLE_REASON * reasons.length) break;
      keep = keep.filter((i) => head[i] !== optional);
    }
    let rest = left();
    const widths = keep.map((i) => {
      if (!reasons.includes(i)) return natural[i]!;
      // With the service's columns, our reason takes three fifths of what is left.
      const share = i === reasons[reasons.length - 1] ? rest : Math.floor((rest * 3) / 5);
      const w = Math.min(natural[i]!, Math.max(MIN_REASON, share));
      rest -= w;
      return w;
    });
    return { keep, widths };
  };

  // Streamed rows have fixed widths; on a terminal too narrow for readable reasons, Kind and then
  // Code are left out (the input shows the code too), and with the service's columns our reason
  // takes three fifths of what is left.
  const streamPrefix = (withCode: boolean, withKind: boolean) =>
    (withLine ? WIDTH.line + 2 : 0) + WIDTH.input + 2 + WIDTH.verdict + 2 + (withCode ? WIDTH.code + 2 : 0) + (withKind ? WIDTH.kind + 2 : 0);
  const reasonsNeed = withRemote ? 2 * READABLE_REASON + WIDTH.service + 4 : READABLE_REASON;
  const streamKind = width === undefined || width - streamPrefix(true, true) >= reasonsNeed;
  const streamCode = streamKind || width - streamPrefix(true, false) >= reasonsNeed;
  const streamReason =
    width === undefined ? WIDTH.reason : Math.max(MIN_REASON, Math.floor(((width - streamPrefix(streamCode, streamKind) - WIDTH.service - 4) * 3) / 5));

  /** Line, Input, Verdict, [Code, [Kind]], Reason[, Service, Service reason]: the row's cells before the reasons. */
  const streamCells = (line: string, input: string, verdict: string, code: string, kind: string) => {
    const cols = [input, verdict];
    if (streamCode) cols.push(code);
    if (streamKind) cols.push(kind);
    if (withLine) cols.unshift(line);
    return cols;
  };

  const streamHead = () => {
    const cols = streamCells(
      cell('Line', WIDTH.line),
      cell('Input', WIDTH.input),
      cell('Verdict', WIDTH.verdict),
      cell('Code', WIDTH.code),
      cell('Kind', WIDTH.kind),
    );
    cols.push(withRemote ? cell('Reason', streamReason) : 'Reason');
    if (withRemote) cols.push(cell('Service', WIDTH.service), 'Service reason');
    const line = cols.join('  ').trimEnd();
    // Two short lines: each fits an 80-column terminal.
    return `More than ${FIRST_ROWS} codes: from here on only those with a problem, as they come.\n(The summary counts them all; --json or a pipe gives every row.)\n${chalk ? chalk.bold(line) : line}\n`;
  };

  const streamRow = (input: string, v: Verdict, remote: RemoteVerdict | undefined, at: Where | undefined) => {
    const warned = v.valid && v.problems.length > 0;
    const cols = streamCells(
      cell(at ? String(at.line) : '', WIDTH.line),
      cell(tsvField(input), WIDTH.input),
      verdictPaint(v.valid, warned, cell(verdictText(v.valid, warned), WIDTH.verdict)),
      cell(v.display ?? v.normalized ?? '', WIDTH.code),
      cell(v.kind ?? '', WIDTH.kind),
    );
    const reason = reasonText(v.problems);
    // The last column is cut to the terminal's width: one row a line (--json or a pipe has it whole).
    const last = (text: string) => (width === undefined ? text : truncate(text, Math.max(MIN_REASON, width - textWidth(plain(cols.join('  '))) - 2)));
    cols.push(withRemote ? cell(reason, streamReason) : last(reason));
    if (remote) {
      cols.push(verdictPaint(remote.valid, false, cell(verdictText(remote.valid, false), WIDTH.service)));
      cols.push(last(reasonText(remote.problems)));
    }
    return `${cols.join('  ').trimEnd()}\n`;
  };

  return {
    add(input, v, remote, at) {
      if (added++ < FIRST_ROWS) {
        const row = [
          tsvField(input),
          verdictCell(v.valid, v.valid && v.problems.length > 0),
          v.display ?? v.normalized ?? '',
          v.kind ?? '',
          reasonText(v.problems),
        ];
        if (remote) row.push(verdictCell(remote.valid, false), reasonText(remote.problems));
        if (withLine) row.unshift(at ? String(at.line) : '');
        rows.push(row);
        return;
      }
      beginStream();
      const problem = !v.valid || v.problems.length > 0 || (remote !== undefined && (!remote.valid || remote.problems.length > 0));
      if (problem) text += streamRow(input, v, remote, at);
    },
    render() {
      const out = text + tableText();
      text = '';
      return out;
    },
    get pending() {
      return rows.length + (text === '' ? 0 : 1);
    },
    get streaming() {
      return added >= FIRST_ROWS;
    },
    beginStream,
  };
}
