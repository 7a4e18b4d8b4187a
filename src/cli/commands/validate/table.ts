// The terminal view, loaded only when stdout is a terminal. The first FIRST_ROWS codes are a table
// (cli-table3, chalk), as a short input always was. Past them the view streams: the table is
// printed at once, then only the codes with a problem (invalid, or a warning), one fixed-width
// row each as it comes (widths fixed up front, no layout pass), while the valid ones are only
// counted (the bulk path takes them) and the summary on stderr ends the run. A cli-table3 table
// costs most of a millisecond per row: 200,000 rows took minutes before anything was printed.
import type { RemoteVerdict, Verdict, Where } from './format.js';
import { reasonText, tsvField } from './format.js';
import { lazy } from '../../lazy.js';

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

/** `withLine`: the input has line numbers (a file, stdin, a table), shown in a leading Line column. */
export async function tableRows(color: boolean, withRemote: boolean, withLine = false): Promise<TableRows> {
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
    const table = new Table({
      head,
      style: { head: chalk ? ['bold'] : [], border: [] },
      wordWrap: true,
      colWidths: [...(withLine ? [null] : []), ...(withRemote ? [null, null, null, null, 40, null, 30] : [null, null, null, null, 60])],
    } as ConstructorParameters<typeof Table>[0]);
    table.push(...rows);
    rows = [];
    return `${table.toString()}\n`;
  };

  const streamHead = () => {
    const cols = [cell('Input', WIDTH.input), cell('Verdict', WIDTH.verdict), cell('Code', WIDTH.code), cell('Kind', WIDTH.kind)];
    if (withLine) cols.unshift(cell('Line', WIDTH.line));
    cols.push(withRemote ? cell('Reason', WIDTH.reason) : 'Reason');
    if (withRemote) cols.push(cell('Service', WIDTH.service), 'Service reason');
    const line = cols.join('  ').trimEnd();
    return `More than ${FIRST_ROWS} codes: from here on only those with a problem, as they come (the summary counts all; --json or a pipe gives every row)\n${chalk ? chalk.bold(line) : line}\n`;
  };

  const streamRow = (input: string, v: Verdict, remote: RemoteVerdict | undefined, at: Where | undefined) => {
    const warned = v.valid && v.problems.length > 0;
    const cols = [
      cell(tsvField(input), WIDTH.input),
      verdictPaint(v.valid, warned, cell(verdictText(v.valid, warned), WIDTH.verdict)),
      cell(v.display ?? v.normalized ?? '', WIDTH.code),
      cell(v.kind ?? '', WIDTH.kind),
    ];
    if (withLine) cols.unshift(cell(at ? String(at.line) : '', WIDTH.line));
    const reason = reasonText(v.problems);
    cols.push(withRemote ? cell(reason, WIDTH.reason) : reason);
    if (remote) cols.push(verdictPaint(remote.valid, false, cell(verdictText(remote.valid, false), WIDTH.service)), reasonText(remote.problems));
    return `${cols.join('  ').trimEnd()}\n`;
  };

  return {
    add(input, v, remote, at) {
      if (added++ < FIRST_ROWS) {
        const row = [tsvField(input), verdictCell(v.valid, v.valid && v.problems.length > 0), v.display ?? v.normalized ?? '', v.kind ?? '', reasonText(v.problems)];
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
