// The bulk fast path of `validate`: one loop per input chunk that splits, checks and writes the
// common line (a bare valid code with nothing to say about it) without a string, a call per line
// or a scan for the newline, and hands every other line to the general path unchanged.
//
// - Splitting: a bare ISRC is 12 bytes, so the loop looks at the byte where its newline would be
//   (and for CRLF the two bytes); only when that guess fails does it search for the newline. A
//   UPC guesses 12, 13 and 14. The guess is safe: a line that passes the byte check below has no
//   newline inside it, so the guessed newline is the line's first.
// - Checking: plainValidIsrcAt / plainValidUpcLength (src/codes/bytes.ts) on the input bytes.
// - Writing: every fast line of a kind is the same text with the code patched in (a Stamp). The
//   text is copied ahead, BLOCK lines at a time, into the writer's buffer; each line then only
//   gets its code's bytes, moved as 32-bit words. Profiling showed a copy call per line (~25 ns)
//   and byte-by-byte patching as the two largest costs once splitting was gone.
// - A line that fails the guess but holds only ASCII letters, digits, spaces and hyphens (a code
//   written with separators or in lowercase, such as the display form US-RC1-76-07839) is
//   normalized into a 16-byte scratch and checked there; if it is plain valid, its line is
//   written as head + the input as is (nothing in it needs escaping) + a stamped tail. Without
//   this a file of display-form ISRCs ran 6 to 7 times slower than one of compact ISRCs.
//
// Anything else (blank, CR alone, BOM, invalid, warnings, other characters, non-ASCII) goes to
// `slow` via emitLine, which is what the general path does with every line, so the output is
// byte for byte the same (test/unit/codes-cli.test.ts compares both on mixed input).
import { plainValidIsrcAt, plainValidUpcLength } from '../../../codes/index.js';
import { emitLine, type LineHandler, type LinesHandler } from './lines.js';
import type { ByteWriter } from './writer.js';

/** Lines of template copied in one go ahead of a run of fast lines. */
const BLOCK = 32;

/** The output line for a valid code with no problem, with holes for the code. */
interface Stamp {
  size: number;
  /** The line BLOCK times over. */
  block: Uint8Array;
  /** Where the code goes: the input field, then the normalized one (same bytes; for rows, same place). */
  first: number;
  second: number;
  /** Where the ISRC display form CC-XXX-YY-NNNNN starts; -1 for none. */
  display: number;
}

// Placeholders in the line texts below: the input field, and the code (n bytes of NUL).
const INPUT = '\u0001';
const CODE = '\u0000';
const DISPLAY = 'CC-XXX-YY-NNNNN';
const code = (n: number) => CODE.repeat(n);
const UPC_KIND: Record<number, string> = { 12: 'upc-a', 13: 'ean-13', 14: 'gtin-14' };

/** Exactly what jsonLine / plainRow (format.ts) give for a valid code of n characters with no problem. */
function lineText(kind: 'upc' | 'isrc', mode: FastMode, n: number): string {
  if (kind === 'isrc') {
    return mode === 'json'
      ? `{"input":"${INPUT}","valid":true,"normalized":"${code(n)}","kind":"isrc","display":"${DISPLAY}","problems":[]}\n`
      : `${INPUT}\tvalid\t${DISPLAY}\t\n`;
  }
  return mode === 'json'
    ? `{"input":"${INPUT}","valid":true,"normalized":"${code(n)}","kind":"${UPC_KIND[n]}","problems":[]}\n`
    : `${INPUT}\tvalid\t${code(n)}\t\n`;
}

const bytesOf = (text: string) => Uint8Array.from(text, (c) => (c === CODE || c === INPUT ? 0 : c.charCodeAt(0)));

/** The line of a bare code: the input is the code itself. */
function stamp(text: string, n: number): Stamp {
  text = text.replace(INPUT, code(n));
  const run = /\u0000+/g;
  const starts: number[] = [];
  for (let m = run.exec(text); m; m = run.exec(text)) starts.push(m.index);
  const line = bytesOf(text);
  const block = new Uint8Array(line.length * BLOCK);
  for (let i = 0; i < BLOCK; i++) block.set(line, i * line.length);
  return { size: line.length, block, first: starts[0]!, second: starts[1] ?? starts[0]!, display: text.indexOf(DISPLAY) };
}

/** The line of a code written loosely: head, then the input as given, then the tail. */
interface LooseStamp {
  head: Uint8Array;
  tail: Uint8Array;
  /** Where the normalized code and the display form go in the tail; -1 for none. */
  code: number;
  display: number;
}

function looseStamp(text: string): LooseStamp {
  const [head, tail] = text.split(INPUT) as [string, string];
  return { head: bytesOf(head), tail: bytesOf(tail), code: tail.indexOf(CODE), display: tail.indexOf(DISPLAY) };
}

export type FastMode = 'json' | 'plain';

export interface FastLines {
  /** The LinesHandler to give eachLine. */
  lines: LinesHandler;
  /** How many lines it wrote itself (each a valid code without warning). */
  valid(): number;
}

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/**
 * The fast path for one kind and output mode. `slow` gets every line it does not write itself
 * (after emitLine's CR and blank-line handling), in order.
 */
export function fastLines(kind: 'upc' | 'isrc', mode: FastMode, currentYear: number, w: ByteWriter, slow: LineHandler): FastLines {
  const lengths = kind === 'isrc' ? [12] : [12, 13, 14];
  const stamps = lengths.map((n) => stamp(lineText(kind, mode, n), n));
  const looseStamps = lengths.map((n) => looseStamp(lineText(kind, mode, n)));
  let valid = 0;

  // The normalized code of a loosely written line: 16 bytes fit "ISRC" + 12.
  const scratch = new Uint8Array(16);
  /** Writes the line of bytes[s..e) if it is a plain valid code once spaces and hyphens are gone; false if not. */
  const loose = (b: Buffer, s: number, e: number): boolean => {
    if (e - s > 64) return false;
    let n = 0;
    for (let i = s; i < e; i++) {
      let c = b[i]!;
      if (c === 32 || c === 45) continue;
      if (kind === 'isrc' && c >= 97 && c <= 122) c -= 32;
      else if (!((c >= 48 && c <= 57) || (kind === 'isrc' && c >= 65 && c <= 90))) return false;
      if (n === 16) return false;
      scratch[n++] = c;
    }
    let from = 0;
    let len = 12;
    if (kind === 'isrc') {
      // A leading "ISRC" is dropped only when the code is too long with it (docs/codes.md).
      if (n === 16 && scratch[0] === 73 && scratch[1] === 83 && scratch[2] === 82 && scratch[3] === 67) from = 4;
      else if (n !== 12) return false;
      if (!plainValidIsrcAt(scratch, from, currentYear)) return false;
    } else {
      len = plainValidUpcLength(scratch, 0, n);
      if (len === 0) return false;
    }
    const t = looseStamps[len - 12]!;
    w.reserve(t.head.length + (e - s) + t.tail.length);
    const out = w.buf;
    let pos = w.pos;
    out.set(t.head, pos);
    pos += t.head.length;
    b.copy(out, pos, s, e);
    pos += e - s;
    out.set(t.tail, pos);
    if (t.code >= 0) for (let k = 0; k < len; k++) out[pos + t.code + k] = scratch[from + k]!;
    if (t.display >= 0) {
      const d = pos + t.display;
      for (let k = 0; k < 12; k++) out[d + k + (k < 2 ? 0 : k < 5 ? 1 : k < 7 ? 2 : 3)] = scratch[from + k]!;
    }
    w.pos = pos + t.tail.length;
    return true;
  };

  const lines: LinesHandler = (b, p, stop) => {
    const input = viewOf(b);
    let out = w.buf;
    let view = viewOf(out);
    let pos = w.pos;
    // out[pos..ready) already holds copies of `readyFor`'s text, the first starting at pos.
    let ready = 0;
    let readyFor: Stamp | undefined;
    let n = 0;
    while (p < stop) {
      n++;
      // Guess the line's length from where a newline (LF or CRLF) is; next = where the next line
      // starts, 0 when no guess fits.
      let len = 12;
      let next = 0;
      for (; len <= (kind === 'isrc' ? 12 : 14); len++) {
        const nl = p + len;
        if (nl >= stop) break;
        const c = b[nl];
        if (c === 10) next = nl + 1;
        else if (c === 13 && b[nl + 1] === 10) next = nl + 2;
        else continue;
        break;
      }
      const ok = next !== 0 && (kind === 'isrc' ? plainValidIsrcAt(b, p, currentYear) : plainValidUpcLength(b, p, p + len) !== 0);
      if (!ok) {
        const e = b.indexOf(10, p);
        w.pos = pos;
        if (loose(b, p, e > p && b[e - 1] === 13 ? e - 1 : e)) valid++;
        else emitLine(b, p, e, slow);
        if (w.buf !== out) {
          out = w.buf;
          view = viewOf(out);
        }
        pos = w.pos;
        ready = 0;
        p = e + 1;
        continue;
      }

      const s = stamps[len - 12]!;
      if (pos + s.size > ready || readyFor !== s) {
        if (pos + s.block.length > out.length) {
          w.pos = pos;
          w.reserve(s.block.length);
          out = w.buf;
          view = viewOf(out);
          pos = w.pos;
        }
        out.set(s.block, pos);
        ready = pos + s.block.length;
        readyFor = s;
      }
      // The code's first 12 bytes as three little-endian words: byte i of the code is byte i%4 of word i/4.
      const w0 = input.getUint32(p, true);
      const w1 = input.getUint32(p + 4, true);
      const w2 = input.getUint32(p + 8, true);
      const a = pos + s.first;
      const z = pos + s.second;
      view.setUint32(a, w0, true);
      view.setUint32(a + 4, w1, true);
      view.setUint32(a + 8, w2, true);
      view.setUint32(z, w0, true);
      view.setUint32(z + 4, w1, true);
      view.setUint32(z + 8, w2, true);
      for (let k = 12; k < len; k++) out[a + k] = out[z + k] = b[p + k]!;
      if (s.display >= 0) {
        // CC-XXX-YY-NNNNN (the hyphens are in the stamp): code bytes 0-1, 2-4, 5-6, 7-11.
        const d = pos + s.display;
        view.setUint16(d, w0 & 0xffff, true);
        view.setUint16(d + 3, w0 >>> 16, true);
        out[d + 5] = w1 & 0xff;
        view.setUint16(d + 7, (w1 >>> 8) & 0xffff, true);
        out[d + 10] = w1 >>> 24;
        view.setUint32(d + 11, w2, true);
      }
      pos += s.size;
      valid++;
      p = next;
    }
    w.pos = pos;
    return n;
  };
  return { lines, valid: () => valid };
}
