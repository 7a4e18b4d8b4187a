// Streams lines out of a byte stream without decoding them: each non-blank line is handed over as
// (bytes, start, end) of a chunk, CRLF tolerated, a leading UTF-8 BOM dropped. Splitting bytes on
// '\n' is safe for UTF-8 (no multi-byte sequence contains 0x0A). Control returns to the caller
// between chunks so that it can wait for its output to drain.
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';

/** A code is a few characters; a "line" this long means the input is not a list of codes. */
export const MAX_LINE_BYTES = 1 << 20;

export type LineHandler = (bytes: Buffer, start: number, end: number) => void;

function emit(bytes: Buffer, start: number, end: number, onLine: LineHandler): void {
  if (end > start && bytes[end - 1] === 13) end--;
  if (end === start) return;
  const first = bytes[start];
  if (first === 32 || first === 9) {
    // Blank lines (spaces and tabs only) are skipped like empty ones.
    let i = start + 1;
    while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
    if (i === end) return;
  }
  onLine(bytes, start, end);
}

/**
 * Calls onLine for each line, in order. afterChunk runs once per chunk read and may return a
 * promise (backpressure): reading waits for it. `name` names the input in errors.
 */
export async function eachLine(
  stream: Readable,
  name: string,
  onLine: LineHandler,
  afterChunk: () => Promise<void> | undefined,
): Promise<void> {
  let carry: Buffer | undefined;
  let lines = 0;
  // The first line may start with a BOM (a chunk boundary can fall inside it, hence per line).
  const first: LineHandler = (b, s, e) => {
    if (e - s >= 3 && b[s] === 0xef && b[s + 1] === 0xbb && b[s + 2] === 0xbf) s += 3;
    emit(b, s, e, onLine);
  };
  for await (const piece of stream) {
    const chunk: Buffer = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : (piece as Buffer);
    const len = chunk.length;
    let start = 0;
    for (let i = start; i < len; i++) {
      if (chunk[i] !== 10) continue;
      if (carry !== undefined) {
        const line = Buffer.concat([carry, chunk.subarray(start, i)]);
        carry = undefined;
        if (lines++ === 0) first(line, 0, line.length);
        else emit(line, 0, line.length, onLine);
      } else if (lines++ === 0) {
        first(chunk, start, i);
      } else {
        emit(chunk, start, i, onLine);
      }
      start = i + 1;
    }
    if (start < len) {
      // Copied: the rest of the chunk is small, and keeping a view would pin the whole chunk.
      carry = carry === undefined ? Buffer.from(chunk.subarray(start)) : Buffer.concat([carry, chunk.subarray(start)]);
      if (carry.length > MAX_LINE_BYTES) {
        throw new UsageError(`${name}: line ${lines + 1} is longer than ${MAX_LINE_BYTES} bytes`, 'give one code per line');
      }
    }
    const wait = afterChunk();
    if (wait) await wait;
  }
  if (carry !== undefined) {
    if (lines === 0) first(carry, 0, carry.length);
    else emit(carry, 0, carry.length, onLine);
  }
}
