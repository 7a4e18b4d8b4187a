// The bulk fast path: the line for a plain valid code, written from a prebuilt template of the
// whole line (one memcpy) with the code's bytes filled in. Every such line has a fixed length for
// a given kind, so there is no string and no per-byte work beyond the code itself. Must give
// exactly what jsonLine / plainRow give for the same code (a unit test compares them).
import type { ByteWriter } from './writer.js';

interface Template {
  bytes: Uint8Array;
  /** Where the code is copied (input, and the normalized form when it is the same); -1 for none. */
  first: number;
  second: number;
  /** Where the ISRC display form CC-XXX-YY-NNNNN goes; -1 for none. */
  display: number;
}

const CODE = '\u0000';
const DISPLAY = 'CC-XXX-YY-NNNNN';

function template(text: string): Template {
  const run = /\u0000+/g;
  const starts: number[] = [];
  for (let m = run.exec(text); m; m = run.exec(text)) starts.push(m.index);
  return {
    bytes: Uint8Array.from(text, (c) => (c === CODE ? 0 : c.charCodeAt(0))),
    first: starts[0] ?? -1,
    second: starts[1] ?? -1,
    display: text.indexOf(DISPLAY),
  };
}

const code = (n: number) => CODE.repeat(n);
const upcKind: Record<number, string> = { 12: 'upc-a', 13: 'ean-13', 14: 'gtin-14' };
const UPC_JSON: Template[] = [];
const UPC_PLAIN: Template[] = [];
for (const n of [12, 13, 14]) {
  UPC_JSON[n] = template(`{"input":"${code(n)}","valid":true,"normalized":"${code(n)}","kind":"${upcKind[n]}","problems":[]}\n`);
  UPC_PLAIN[n] = template(`${code(n)}\tvalid\t${code(n)}\t\n`);
}
const ISRC_JSON = template(`{"input":"${code(12)}","valid":true,"normalized":"${code(12)}","kind":"isrc","display":"${DISPLAY}","problems":[]}\n`);
const ISRC_PLAIN = template(`${code(12)}\tvalid\t${DISPLAY}\t\n`);

function fill(w: ByteWriter, t: Template, b: Uint8Array, s: number, e: number): void {
  const size = t.bytes.length;
  w.reserve(size);
  const out = w.buf;
  const pos = w.pos;
  out.set(t.bytes, pos);
  const len = e - s;
  const first = pos + t.first;
  if (t.second >= 0) {
    const second = pos + t.second;
    for (let k = 0; k < len; k++) {
      const c = b[s + k]!;
      out[first + k] = c;
      out[second + k] = c;
    }
  } else {
    for (let k = 0; k < len; k++) out[first + k] = b[s + k]!;
  }
  if (t.display >= 0) {
    const o = pos + t.display;
    out[o] = b[s]!;
    out[o + 1] = b[s + 1]!;
    out[o + 3] = b[s + 2]!;
    out[o + 4] = b[s + 3]!;
    out[o + 5] = b[s + 4]!;
    out[o + 7] = b[s + 5]!;
    out[o + 8] = b[s + 6]!;
    for (let k = 0; k < 5; k++) out[o + 10 + k] = b[s + 7 + k]!;
  }
  w.pos = pos + size;
}

export function upcJsonFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  fill(w, UPC_JSON[e - s]!, b, s, e);
}

export function upcPlainFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  fill(w, UPC_PLAIN[e - s]!, b, s, e);
}

export function isrcJsonFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  fill(w, ISRC_JSON, b, s, e);
}

export function isrcPlainFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  fill(w, ISRC_PLAIN, b, s, e);
}
