// CSV and TSV input for `validate --file`/stdin: a spreadsheet export, read with csv-parse
// (quoted cells, embedded separators and newlines, BOM, CRLF), one chosen column. Loaded only
// for such input: a plain list of codes keeps the byte-level fast path (fast.ts).
import { UsageError } from '../../errors.js';

export type Delimiter = ',' | ';' | '\t';

/**
 * How a table's separator is found: a TSV's is a tab; a `.csv`'s a comma, or a semicolon (Excel's
 * CSV where the comma is the decimal mark, in most of Europe) as its first lines say
 * (delimiterOf); any other file read as a table ('sniff'): a tab in the first line means TSV,
 * else as a `.csv`.
 */
export type Separator = '\t' | 'csv' | 'sniff';

/** One code read from a table: the cell as written, the 1-based line its record starts on, and the column's name or number. */
export interface Cell {
  value: string;
  line: number;
  column: string;
}

/** The separator of a table whose input starts with `firstChunk` (see Separator). */
export function delimiterOf(firstChunk: Buffer, how: Separator): Delimiter {
  if (how === '\t') return '\t';
  const nl = firstChunk.indexOf(10);
  if (how === 'sniff' && (nl === -1 ? firstChunk : firstChunk.subarray(0, nl)).includes(9)) return '\t';
  // Commas and semicolons outside quotes, per line, over the first lines at hand: the separator is
  // on every line as often (a decimal comma or a stray semicolon is not). Python's csv.Sniffer
  // reasons the same way.
  const lines: { commas: number; semicolons: number }[] = [];
  let line = { commas: 0, semicolons: 0 };
  let quoted = false;
  // A comma between two digits (9,99) outside quotes: a decimal comma, the mark of a
  // semicolon-separated file when the counts cannot tell.
  let decimalComma = false;
  const isDigit = (i: number) => firstChunk[i] !== undefined && firstChunk[i]! >= 48 && firstChunk[i]! <= 57;
  for (let i = 0; i < firstChunk.length; i++) {
    const byte = firstChunk[i]!;
    if (byte === 34) quoted = !quoted;
    else if (quoted) continue;
    else if (byte === 44) {
      line.commas++;
      if (isDigit(i - 1) && isDigit(i + 1)) decimalComma = true;
    } else if (byte === 59) line.semicolons++;
    else if (byte === 10) {
      lines.push(line);
      line = { commas: 0, semicolons: 0 };
      if (lines.length === SNIFF_LINES) break;
    }
  }
  if (lines.length === 0) lines.push(line);
  const steady = (count: (l: { commas: number; semicolons: number }) => number) => count(lines[0]!) > 0 && lines.every((l) => count(l) === count(lines[0]!));
  const commas = steady((l) => l.commas);
  const semicolons = steady((l) => l.semicolons);
  if (semicolons && !commas) return ';';
  if (commas && !semicolons) return ',';
  // Both steady, or neither: the one the first line has more of; when as many, a semicolon only
  // beside decimal commas.
  const first = lines[0]!;
  if (first.semicolons !== first.commas) return first.semicolons > first.commas ? ';' : ',';
  return first.semicolons > 0 && decimalComma ? ';' : ',';
}

/** How many lines delimiterOf reads. */
const SNIFF_LINES = 20;

const UPC_HEADER = /^(upc|ean|gtin|barcode|upc\/ean|ean\/upc|upc[ _-]?code|ean[ _-]?code|release[ _-]?(upc|code))$/i;
const ISRC_HEADER = /^(isrc|isrc[ _-]?code|track[ _-]?isrc)$/i;
const HEADER_NAMES: Record<'upc' | 'isrc' | 'any', { test(s: string): boolean }> = {
  upc: UPC_HEADER,
  isrc: ISRC_HEADER,
  any: { test: (s) => UPC_HEADER.test(s) || ISRC_HEADER.test(s) },
};

/** A header cell has no digit: every UPC and ISRC has some. */
const looksLikeHeader = (cell: string | undefined) => cell !== undefined && !/\d/.test(cell);

/**
 * The codes of one column, in order. `column` is a header name (case-insensitive) or a 1-based
 * number; without it a one-column table is read whole, and a wider one needs a header naming the
 * kind (UPC, EAN, GTIN, barcode / ISRC). A header line is recognised and never read as a code;
 * empty cells are skipped like blank lines, and counted in `empty`.
 */
export async function* columnCells(
  source: AsyncIterable<Buffer>,
  name: string,
  kind: 'upc' | 'isrc' | 'any',
  delimiter: Delimiter,
  column: string | undefined,
  empty: { n: number } = { n: 0 },
): AsyncGenerator<Cell[]> {
  const { parse } = await import('csv-parse');
  // Lines are counted here, not by csv-parse's `info` (an object built per record: a quarter of a
  // large table's time), so blank lines come through as records ([''], skipped below).
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    // Any line ending, even mixed in one file (csv-parse would otherwise take the first line's for
    // all: a file starting with an LF line read the CRLF lines after it with a CR in every cell).
    record_delimiter: ['\r\n', '\n', '\r'],
    // A TSV export has no quoting convention to rely on.
    quote: delimiter === '\t' ? false : '"',
  });
  const feed = (async () => {
    try {
      for await (const chunk of source) if (!parser.write(Buffer.from(chunk))) await new Promise((r) => parser.once('drain', r));
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  let index: number | undefined;
  let label = '';
  let first = true;
  // The line the next record starts on: a record takes one line, and one more for each line break
  // (CRLF, CR or LF) inside its quoted cells.
  let nextLine = 1;
  let batch: Cell[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = nextLine;
      nextLine++;
      for (const cell of record) if (/[\r\n]/.test(cell)) nextLine += cell.match(/\r\n|\r|\n/g)!.length;
      if (record.length === 1 && record[0] === '') {
        // A blank line: counted once the header is behind (a blank line before it is no cell).
        if (!first) empty.n++;
        continue;
      }
      if (first) {
        first = false;
        ({ index, label } = chooseColumn(record, name, kind, column));
        if (looksLikeHeader(record[index])) continue;
      }
      const value = record[index!];
      if (value !== undefined && value.trim() !== '') batch.push({ value, line, column: label });
      else empty.n++;
      if (batch.length >= 512) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (typeof e.code === 'string' && e.code.startsWith('CSV_'))
      throw new UsageError(`${name}: not readable as ${delimiter === '\t' ? 'TSV' : 'CSV'}: ${e.message}`);
    throw err;
  }
  await feed;
  if (batch.length > 0) yield batch;
}

function chooseColumn(header: string[], name: string, kind: 'upc' | 'isrc' | 'any', column: string | undefined): { index: number; label: string } {
  const names = header.map((h) => h.trim());
  if (column !== undefined && /^\d+$/.test(column)) {
    const n = Number(column);
    if (n < 1) throw new UsageError(`--column ${column}: columns are numbered from 1`);
    return { index: n - 1, label: looksLikeHeader(header[n - 1]) ? names[n - 1]! : column };
  }
  if (column !== undefined) {
    const i = names.findIndex((h) => h.toLowerCase() === column.trim().toLowerCase());
    if (i === -1) throw new UsageError(`--column ${column}: no such column in the first line of ${name}`, `its columns: ${names.join(', ')}`);
    return { index: i, label: names[i]! };
  }
  if (header.length === 1) return { index: 0, label: looksLikeHeader(header[0]) ? names[0]! : '1' };
  const i = names.findIndex((h) => HEADER_NAMES[kind].test(h));
  if (i === -1) {
    throw new UsageError(
      `${name} has ${header.length} columns: say which holds the codes`,
      `--column NAME or --column N (from 1); the first line reads: ${names.join(', ')}`,
    );
  }
  return { index: i, label: names[i]! };
}
