// The bulk fast path: lines for plain valid codes written byte by byte from templates. Must give
// exactly what jsonLine / plainRow give for the same code (a unit test compares them).
import type { ByteWriter } from './writer.js';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

const J_INPUT = ascii('{"input":"');
const J_NORMALIZED = ascii('","valid":true,"normalized":"');
const J_UPC_END: Record<number, Uint8Array> = {
  12: ascii('","kind":"upc-a","problems":[]}\n'),
  13: ascii('","kind":"ean-13","problems":[]}\n'),
  14: ascii('","kind":"gtin-14","problems":[]}\n'),
};
const J_ISRC_DISPLAY = ascii('","kind":"isrc","display":"');
const J_ISRC_END = ascii('","problems":[]}\n');
const P_VALID = ascii('\tvalid\t');
const P_END = ascii('\t\n');

/** Room for any fast line: templates plus the code written three times. */
export const FAST_LINE_MAX = 160;

function put(w: ByteWriter, src: Uint8Array, start: number, end: number): void {
  const buf = w.buf;
  let pos = w.pos;
  for (let i = start; i < end; i++) buf[pos++] = src[i]!;
  w.pos = pos;
}

const all = (w: ByteWriter, tpl: Uint8Array) => put(w, tpl, 0, tpl.length);

/** The ISRC display form CC-XXX-YY-NNNNN from its 12 bytes. */
function putIsrcDisplay(w: ByteWriter, b: Uint8Array, s: number): void {
  put(w, b, s, s + 2);
  w.buf[w.pos++] = 45;
  put(w, b, s + 2, s + 5);
  w.buf[w.pos++] = 45;
  put(w, b, s + 5, s + 7);
  w.buf[w.pos++] = 45;
  put(w, b, s + 7, s + 12);
}

export function upcJsonFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  w.reserve(FAST_LINE_MAX);
  all(w, J_INPUT);
  put(w, b, s, e);
  all(w, J_NORMALIZED);
  put(w, b, s, e);
  all(w, J_UPC_END[e - s]!);
}

export function upcPlainFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  w.reserve(FAST_LINE_MAX);
  put(w, b, s, e);
  all(w, P_VALID);
  put(w, b, s, e);
  all(w, P_END);
}

export function isrcJsonFast(w: ByteWriter, b: Uint8Array, s: number, e: number): void {
  w.reserve(FAST_LINE_MAX);
  all(w, J_INPUT);
  put(w, b, s, e);
  all(w, J_NORMALIZED);
  put(w, b, s, e);
  all(w, J_ISRC_DISPLAY);
  putIsrcDisplay(w, b, s);
  all(w, J_ISRC_END);
}

export function isrcPlainFast(w: ByteWriter, b: Uint8Array, s: number, _e: number): void {
  w.reserve(FAST_LINE_MAX);
  put(w, b, s, s + 12);
  all(w, P_VALID);
  putIsrcDisplay(w, b, s);
  all(w, P_END);
}
