// A plain list saved as UTF-16 (Excel's "Unicode Text", Notepad's "Unicode") starts with its byte
// order mark: it is transcoded to UTF-8 before its lines are split, so that its codes read as
// codes and not as a NUL between every two characters. Anything else passes through untouched,
// chunk for chunk (a table is csv-parse's, which reads the mark itself).
import { TextDecoder } from 'node:util';

/** The decoder for a UTF-16 byte order mark at the start of `head`; undefined for anything else. */
function utf16Decoder(head: Buffer): TextDecoder | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  return undefined;
}

/** `source`'s bytes as UTF-8: decoded from UTF-16 when it starts with a UTF-16 byte order mark. */
export async function* utf8Chunks(source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer | string> {
  let decoder: TextDecoder | undefined;
  // The first bytes, until there are two to tell a mark by (a pipe may give one at a time).
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const piece of source) {
    let chunk = piece;
    if (head !== undefined) {
      if (typeof chunk === 'string') chunk = Buffer.from(chunk, 'utf8');
      chunk = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (chunk.length < 2) {
        head = Buffer.from(chunk);
        continue;
      }
      head = undefined;
      decoder = utf16Decoder(chunk);
    }
    // The decoder drops the mark, and keeps a character split between two chunks for the next.
    if (decoder === undefined) yield chunk;
    else yield Buffer.from(decoder.decode(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, { stream: true }), 'utf8');
  }
  if (head !== undefined && head.length > 0) yield head;
  const rest = decoder?.decode();
  if (rest) yield Buffer.from(rest, 'utf8');
}
