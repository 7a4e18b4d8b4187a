// A spreadsheet's sheets as rows of cells: CSV and TSV with csv-parse, .xlsx and .xls with SheetJS
// (loaded here, on first use, so that no other command pays for it). A cell is text as written,
// or, from a workbook, a number as stored (a code the sheet holds as a number keeps every digit
// there; a date is a serial number), never the sheet's display of it ("3.6E+11").
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { WorkBook } from '@e965/xlsx';
import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { lazy } from '../lazy.js';

export type CellValue = string | number | undefined;

export interface Sheet {
  /** A workbook's sheet name; undefined for CSV/TSV. */
  name: string | undefined;
  rows: CellValue[][];
  /** The 1-based line (row number) each row starts on. */
  lines: number[];
  /** A workbook's dates count from 1904 (old Mac Excel) instead of 1900. */
  date1904: boolean;
}

export const SPREADSHEET_EXTENSIONS = ['.csv', '.tsv', '.txt', '.xlsx', '.xls'] as const;

/** Every sheet of the file, in the workbook's order (CSV/TSV: one). */
export async function readSheets(path: string): Promise<Sheet[]> {
  const ext = extname(path).toLowerCase();
  if (!(SPREADSHEET_EXTENSIONS as readonly string[]).includes(ext))
    throw new UsageError(`${path}: expected a .csv, .tsv, .xlsx or .xls file`, 'export the sheet from your spreadsheet program as one of these');
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `${path}: no such file`
        : code === 'EISDIR'
          ? `${path}: is a folder, not a spreadsheet`
          : `${path}: cannot be read (${code ?? 'error'})`,
    );
  }
  if (isWorkbook(bytes)) return readWorkbook(path, bytes);
  if (ext === '.xlsx' || ext === '.xls') {
    // An .xls that is really text (some systems export HTML or TSV under that name): read as text.
    return [readDelimited(path, bytes, '\t')];
  }
  return [readDelimited(path, bytes, ext === '.tsv' ? '\t' : undefined)];
}

// .xlsx is a zip archive; .xls (Excel 97-2003) an OLE2 compound file.
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Buffer, sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
const isWorkbook = (bytes: Buffer) => startsWith(bytes, ZIP) || startsWith(bytes, OLE2);

async function readWorkbook(path: string, bytes: Buffer): Promise<Sheet[]> {
  const XLSX = await lazy.xlsx();
  let book: WorkBook;
  try {
    // Values only: no display text, formulas, styles or HTML to build (a large template reads in a fraction of the time).
    book = XLSX.read(bytes, { type: 'buffer', dense: true, cellDates: false, cellText: false, cellHTML: false, cellFormula: false, cellStyles: false });
  } catch (err) {
    throw new UsageError(
      `${path}: not readable as a workbook: ${(err as Error).message}`,
      'open it in your spreadsheet program and save it again as .xlsx, or export the sheet as CSV',
    );
  }
  const date1904 = book.Workbook?.WBProps?.date1904 === true;
  return book.SheetNames.map((name) => {
    const data = (book.Sheets[name]?.['!data'] ?? []) as ({ t?: string; v?: unknown } | undefined)[][];
    const rows: CellValue[][] = [];
    const lines: number[] = [];
    for (let r = 0; r < data.length; r++) {
      const src = data[r] ?? [];
      const row: CellValue[] = new Array(src.length);
      for (let c = 0; c < src.length; c++) row[c] = cellValue(src[c]);
      rows.push(row);
      lines.push(r + 1);
    }
    return { name, rows, lines, date1904 };
  });
}

function cellValue(cell: { t?: string; v?: unknown } | undefined): CellValue {
  if (cell === undefined || cell.v === undefined || cell.v === null) return undefined;
  if (cell.t === 'n' && typeof cell.v === 'number') return cell.v;
  if (cell.t === 'b') return cell.v === true ? 'TRUE' : 'FALSE';
  if (cell.t === 'e') return undefined;
  if (cell.v instanceof Date) return cell.v.toISOString().slice(0, 10);
  return String(cell.v);
}

function readDelimited(path: string, bytes: Buffer, delimiter: string | undefined): Sheet {
  // Excel's "Unicode text" is UTF-16 with a byte order mark; everything else is read as UTF-8.
  const text = bytes[0] === 0xff && bytes[1] === 0xfe ? bytes.subarray(2).toString('utf16le') : bytes.toString('utf8').replace(/^\uFEFF/, '');
  const sep = delimiter ?? sniffDelimiter(text);
  return parseDelimited(path, text, sep);
}

/**
 * The separator of a CSV: a tab, semicolon (Excel's CSV where the comma is the decimal mark) or
 * comma, outside quotes, as the line with the most of one has it among the first lines: the header
 * row, not a template's title or instructions above it ("Version 2; fill in one row per track").
 */
export function sniffDelimiter(text: string): string {
  const SEPARATORS = [',', ';', '\t'] as const;
  let best: { sep: string; n: number } = { sep: ',', n: 0 };
  let counts = [0, 0, 0];
  let quoted = false;
  let lines = 0;
  const endLine = () => {
    counts.forEach((n, k) => {
      if (n > best.n) best = { sep: SEPARATORS[k]!, n };
    });
    counts = [0, 0, 0];
    lines++;
  };
  for (let i = 0; i < text.length && i < 256 * 1024 && lines < SNIFF_LINES; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '\n') endLine();
    else {
      const k = (SEPARATORS as readonly string[]).indexOf(ch);
      if (k >= 0) counts[k]!++;
    }
  }
  endLine();
  return best.sep;
}

/** Lines the separator is looked for in: a template's preamble and header, and some rows. */
const SNIFF_LINES = 60;

function parseDelimited(path: string, text: string, delimiter: string): Sheet {
  const rows: CellValue[][] = [];
  const lines: number[] = [];
  let line = 1;
  try {
    const records = parseCsv(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      quote: delimiter === '\t' ? false : '"',
    }) as string[][];
    for (const record of records) {
      rows.push(record);
      lines.push(line);
      line++;
      for (const cell of record) if (cell.includes('\n') || cell.includes('\r')) line += cell.match(/\r\n|\r|\n/g)!.length;
    }
  } catch (err) {
    throw new UsageError(`${path}: not readable as ${delimiter === '\t' ? 'TSV' : 'CSV'}: ${(err as Error).message}`);
  }
  return { name: undefined, rows, lines, date1904: false };
}
