// Streams lines out of a byte stream: one string per non-blank line, CRLF tolerated, a leading
// UTF-8 BOM dropped. Splits decoded chunks itself (cheaper than node:readline) and hands over
// control between chunks so that the caller can wait for its output to drain.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../../errors.js';

/** A code is a few characters; a "line" this long means the input is not a list of codes. */
export const MAX_LINE_CHARS = 1 << 20;

/** True for lines of nothing but spaces and tabs (the empty line is handled by the caller). */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Calls onLine for each line, in order. afterChunk runs once per chunk read and may return a
 * promise (backpressure): reading waits for it. `name` names the input in errors.
 */
export async function eachLine(
  stream: Readable,
  name: string,
  onLine: (line: string) => void,
  afterChunk: () => Promise<void> | void,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let first = true;
  let lineNo = 0;
  const emit = (text: string, start: number, end: number) => {
    lineNo++;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (end === start) return;
    const line = text.slice(start, end);
    const c = line.charCodeAt(0);
    if ((c === 32 || c === 9) && isBlank(line)) return;
    onLine(line);
  };
  for await (const chunk of stream) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (carry.length > 0) text = carry + text;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) !== -1) {
      emit(text, start, nl);
      start = nl + 1;
    }
    carry = start === 0 ? text : text.slice(start);
    if (carry.length > MAX_LINE_CHARS) {
      throw new UsageError(`${name}: line ${lineNo + 1} is longer than ${MAX_LINE_CHARS} characters`, 'give one code per line');
    }
    const wait = afterChunk();
    if (wait) await wait;
  }
  const rest = carry + decoder.end();
  if (rest.length > 0) emit(rest, 0, rest.length);
}
