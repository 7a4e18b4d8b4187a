// Streams lines out of a byte stream without decoding them: each non-blank line is handed over as
// (bytes, start, end) of a chunk, CRLF tolerated, a leading UTF-8 BOM dropped. Splitting bytes on
// '\n' is safe for UTF-8 (no multi-byte sequence contains 0x0A). Control returns to the caller
// between chunks so that it can wait for its output to drain.
import { UsageError } from '../../errors.js';

/** A code is a few characters; a "line" this long means the input is not a list of codes. */
export const MAX_LINE_BYTES = 1 << 20;

/** `line`: the 1-based line number in its input; undefined for a code that is not a line (an argument, a table cell). */
export type LineHandler = (bytes: Buffer, start: number, end: number, line?: number) => void;

/**
 * Takes every line of bytes[start..stop) at once, where stop - 1 is a '\n' and start begins a
 * line (never the first line of the input) numbered firstLine, and returns how many lines there
 * were, blank ones included. It must do for each line exactly what giving it to `line` via emitLine would do:
 * it exists so that a bulk fast path can avoid a call per line.
 */
export type LinesHandler = (bytes: Buffer, start: number, stop: number, firstLine: number) => number;

export interface LineSink {
  line: LineHandler;
  lines?: LinesHandler;
  /** Counts the blank lines skipped (the summary says how many). */
  blanks?: Blanks;
}

/** How many blank lines (or empty cells) were skipped. */
export interface Blanks {
  n: number;
}

/** Drops a trailing CR, skips blank lines (empty, or spaces and tabs only: counted in `blanks`), passes the rest on. */
export function emitLine(bytes: Buffer, start: number, end: number, onLine: LineHandler, line: number, blanks?: Blanks): void {
  if (end > start && bytes[end - 1] === 13) end--;
  if (end === start) {
    if (blanks) blanks.n++;
    return;
  }
  const first = bytes[start];
  if (first === 32 || first === 9) {
    let i = start + 1;
    while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
    if (i === end) {
      if (blanks) blanks.n++;
      return;
    }
  }
  onLine(bytes, start, end, line);
}

/** The general LinesHandler: one emitLine per line. */
export function splitLines(bytes: Buffer, start: number, stop: number, firstLine: number, onLine: LineHandler, blanks?: Blanks): number {
  let n = 0;
  while (start < stop) {
    // Always found: bytes[stop - 1] is a newline.
    const i = bytes.indexOf(10, start);
    emitLine(bytes, start, i, onLine, firstLine + n, blanks);
    start = i + 1;
    n++;
  }
  return n;
}

/**
 * Gives each line, in order, to sink.line (or to sink.lines, many at a time). afterChunk runs
 * once per chunk read and may return a promise (backpressure): reading waits for it. `name`
 * names the input in errors. A chunk's bytes are used only until the next one is asked for, so
 * a source may read every chunk into the same buffer; handlers must copy what they keep.
 */
export async function eachLine(
  stream: AsyncIterable<Buffer | string>,
  name: string,
  sink: LineHandler | LineSink,
  afterChunk: () => Promise<void> | undefined,
): Promise<void> {
  const onLine = typeof sink === 'function' ? sink : sink.line;
  const blanks = typeof sink === 'function' ? undefined : sink.blanks;
  const onLines: LinesHandler = (typeof sink === 'function' ? undefined : sink.lines) ?? ((b, s, e, first) => splitLines(b, s, e, first, onLine, blanks));
  let carry: Buffer | undefined;
  let lines = 0;
  // Lines one at a time: the one that straddles chunks, and the first (it may start with a BOM).
  const single = (b: Buffer, s: number, e: number) => {
    if (lines === 0 && e - s >= 3 && b[s] === 0xef && b[s + 1] === 0xbb && b[s + 2] === 0xbf) s += 3;
    emitLine(b, s, e, onLine, ++lines, blanks);
  };
  for await (const piece of stream) {
    const chunk: Buffer = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : (piece as Buffer);
    const len = chunk.length;
    let start = 0;
    if (carry !== undefined) {
      const i = chunk.indexOf(10);
      if (i === -1) {
        carry = Buffer.concat([carry, chunk]);
      } else {
        // With its newline, so that a bulk handler can take it like any other (a line cut by
        // every chunk boundary would otherwise take the slow path).
        const line = Buffer.concat([carry, chunk.subarray(0, i + 1)]);
        carry = undefined;
        if (lines === 0) single(line, 0, line.length - 1);
        else lines += onLines(line, 0, line.length, lines + 1);
        start = i + 1;
      }
    }
    if (carry === undefined) {
      if (lines === 0) {
        const i = chunk.indexOf(10, start);
        if (i !== -1) {
          single(chunk, start, i);
          start = i + 1;
        }
      }
      // Whole lines in one go; the part after the last newline waits for the next chunk.
      const stop = lines === 0 ? start : chunk.lastIndexOf(10) + 1;
      if (stop > start) {
        lines += onLines(chunk, start, stop, lines + 1);
        start = stop;
      }
      // Copied: the rest of the chunk is small, and keeping a view would pin the whole chunk.
      if (start < len) carry = Buffer.from(chunk.subarray(start));
    }
    if (carry !== undefined && carry.length > MAX_LINE_BYTES) {
      throw new UsageError(`${name}: line ${lines + 1} is longer than ${MAX_LINE_BYTES} bytes`, 'give one code per line');
    }
    const wait = afterChunk();
    if (wait) await wait;
  }
  if (carry !== undefined) single(carry, 0, carry.length);
}
