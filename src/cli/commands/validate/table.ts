// The terminal view: a table per batch of rows (cli-table3, chalk), loaded only when stdout is a
// terminal. Batches keep a long input streaming instead of waiting for its end.
import type { RemoteVerdict, Verdict, Where } from './format.js';
import { reasonText, tsvField } from './format.js';
import { lazy } from '../../lazy.js';

export interface TableRows {
  add(input: string, v: Verdict, remote?: RemoteVerdict, at?: Where): void;
  /** Renders what was added since the last call ('' when nothing). */
  render(): string;
  readonly pending: number;
}

/** `withLine`: CSV/TSV input, where a Line column leads (the line each record starts on). */
export async function tableRows(color: boolean, withRemote: boolean, withLine = false): Promise<TableRows> {
  const { default: Table } = await lazy.table();
  const chalk = color ? (await lazy.chalk()).default : undefined;
  const paint = (s: string, how: 'green' | 'red' | 'yellow') => (chalk ? chalk[how](s) : s);
  const verdictCell = (valid: boolean, warned: boolean) =>
    valid ? (warned ? paint('valid (warning)', 'yellow') : paint('valid', 'green')) : paint('invalid', 'red');
  const head = ['Input', 'Verdict', 'Code', 'Kind', 'Reason'];
  if (withRemote) head.push('Service', 'Service reason');
  if (withLine) head.unshift('Line');
  let rows: string[][] = [];
  return {
    add(input, v, remote, at) {
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
    },
    render() {
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
    },
    get pending() {
      return rows.length;
    },
  };
}
