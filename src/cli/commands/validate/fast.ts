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
// - Line numbers (JSON): each stamp has a field as wide as the line number's digits (a stamp
//   per width); the digits are written per line, counted up (line-digits.ts).
// - Duplicates: each valid code's numeric key goes into a DuplicateIndex. Lines go in batches
//   (scanBatch): split, checked and keyed once, looked up together so that the table's cache
//   misses overlap, then written in order. A bare code seen before on an earlier line is written
//   here too, from a stamp holding the formatters' duplicate warning (a catalog lists a track's
//   ISRC on each release it is on: through the general path such a file ran 4 times slower).
// - Invalid lines: invalid-lines.ts, from problems serialised once.
//
// Anything else (blank, CR alone, BOM, warnings, other characters, non-ASCII) goes to `slow`
// via emitLine, which is what the general path does with every line, so the output is byte for
// byte the same (test/unit/codes-cli.test.ts and test/integration/validate-fast.test.ts compare).
import * as codes from '../../../codes/index.js';
import { WARM_BATCH, duplicateProblem, linePlace, type DuplicateIndex } from './duplicates.js';
import { problemsJson, reasonText } from './format.js';
import { LineDigits } from './line-digits.js';
import { emitLine, type Blanks, type LineHandler, type LinesHandler } from './lines.js';
import type { ByteWriter } from './writer.js';

// The bundle reaches another chunk's exports through property getters: bound once here, the
// per-line calls below are direct and can be inlined (the getter was 5-10% of a run's time).
const { isrcKeyAt, plainValidIsrcAt, plainValidUpcLength, upcKeyAt } = codes;

/** Lines of template copied in one go ahead of a run of fast lines (at most). */
const BLOCK = 32;

/** The output line for a valid code with no problem, with holes for the code. */
interface Stamp {
  size: number;
  /** The line BLOCK times over. */
  block: Uint8Array;
  /** views[k]: the first k lines of block. */
  views: Uint8Array[];
  /** Where the code goes: the input field, then the normalized one (same bytes; for rows, same place). */
  first: number;
  second: number;
  /** Where the ISRC display form CC-XXX-YY-NNNNN starts; -1 for none. */
  display: number;
  /** Where the line number's digits go; -1 for none. */
  number: number;
}

// Placeholders in the line texts below: the input field, the code (n bytes of NUL), the line number.
const INPUT = '\u0001';
const CODE = '\u0000';
const NUMBER = '\u0002';
const DISPLAY = 'CC-XXX-YY-NNNNN';
const code = (n: number) => CODE.repeat(n);
const UPC_KIND: Record<number, string> = { 12: 'upc-a', 13: 'ean-13', 14: 'gtin-14' };

/**
 * Exactly what jsonLine / plainRow (format.ts) give for a valid code of n characters with no
 * problem (or, in a row, with `reason`), on a line numbered with `digits` digits (0: none);
 * `fix`: with --fix's fields (nothing was undone: empty, or null).
 */
function lineText(kind: 'upc' | 'isrc', mode: 'json' | 'plain', n: number, digits: number, fix: boolean, reason = ''): string {
  const number = NUMBER.repeat(digits);
  if (mode === 'plain') return `${INPUT}\tvalid\t${code(n)}\t${reason}${digits > 0 ? `\t${number}` : ''}${fix ? '\t\t' : ''}\n`;
  const line = `${fix ? ',"fixed":null,"fixed_valid":null' : ''}${digits > 0 ? `,"line":${number}` : ''}`;
  return kind === 'isrc'
    ? `{"input":"${INPUT}","valid":true,"normalized":"${code(n)}","kind":"isrc","display":"${DISPLAY}","problems":[]${line}}\n`
    : `{"input":"${INPUT}","valid":true,"normalized":"${code(n)}","kind":"${UPC_KIND[n]}","problems":[]${line}}\n`;
}

const bytesOf = (text: string) => Uint8Array.from(text, (c) => (c === CODE || c === INPUT || c === NUMBER ? 0 : c.charCodeAt(0)));

/** The line of a bare code: the input is the code itself. */
function stamp(text: string, n: number): Stamp {
  text = text.replace(INPUT, code(n));
  const run = /\u0000+/g;
  const starts: number[] = [];
  for (let m = run.exec(text); m; m = run.exec(text)) starts.push(m.index);
  const line = bytesOf(text);
  const block = new Uint8Array(line.length * BLOCK);
  for (let i = 0; i < BLOCK; i++) block.set(line, i * line.length);
  const views = Array.from({ length: BLOCK + 1 }, (_, k) => block.subarray(0, k * line.length));
  return { size: line.length, block, views, first: starts[0]!, second: starts[1] ?? starts[0]!, display: text.indexOf(DISPLAY), number: text.indexOf(NUMBER) };
}

// Stands for the first place's line number in a repeated code's line: a character the JSON
// formatter leaves as it is, and no code's.
const FIRST = '\u00b6';

/** Exactly what jsonLine / plainRow give for a bare code seen before on line FIRST: lineText's, with the duplicate warning. */
function repeatedText(kind: 'upc' | 'isrc', mode: 'json' | 'plain', n: number, digits: number, fix: boolean): string {
  const problems = [duplicateProblem(linePlace(FIRST))];
  if (mode === 'plain') return lineText(kind, mode, n, digits, fix, reasonText(problems));
  return lineText(kind, mode, n, digits, fix).replace('"problems":[]', `"problems":${problemsJson(problems)}`);
}

/** The line of a bare code seen before, for one width of its first place's number: the whole line, its holes filled per line. */
interface RepeatedStamp {
  line: Uint8Array;
  /** The input, the normalized code (the same bytes; for rows, one place) and the display form (-1: none). */
  first: number;
  second: number;
  display: number;
  /** The first place's digits. */
  place: number;
  /** The line number's digits; -1 for none. */
  number: number;
}

// Stands for the first place's digits in a repeated code's stamp.
const PLACE = '\u0003';

function repeatedStamp(text: string, n: number, placeDigits: number): RepeatedStamp {
  text = text.replace(INPUT, code(n)).replace(FIRST, PLACE.repeat(placeDigits));
  const first = text.indexOf(CODE);
  const second = text.indexOf(CODE, first + n);
  const line = Uint8Array.from(text, (c) => (c === CODE || c === NUMBER || c === PLACE ? 0 : c.charCodeAt(0)));
  return { line, first, second: second < 0 ? first : second, display: text.indexOf(DISPLAY), place: text.indexOf(PLACE), number: text.indexOf(NUMBER) };
}

/** The line of a code written loosely: head, then the input as given, then the tail. */
interface LooseStamp {
  head: Uint8Array;
  tail: Uint8Array;
  /** Where the normalized code, the display form and the line number go in the tail; -1 for none. */
  code: number;
  display: number;
  number: number;
}

function looseStamp(text: string): LooseStamp {
  const [head, tail] = text.split(INPUT) as [string, string];
  return { head: bytesOf(head), tail: bytesOf(tail), code: tail.indexOf(CODE), display: tail.indexOf(DISPLAY), number: tail.indexOf(NUMBER) };
}

/** 'count': valid lines without a problem are counted, not written (--invalid-only, the terminal past its first rows). */
export type FastMode = 'json' | 'plain' | 'count';

export interface FastOptions {
  /** JSON lines carry "line": N. */
  lineNumbers: boolean;
  /** Where valid codes were first seen (shared with the general path). */
  duplicates: DuplicateIndex;
  /** Writes an invalid line itself when it can (invalid-lines.ts); false leaves it to `slow`. */
  invalid?: (bytes: Buffer, start: number, end: number, line: number) => boolean;
  /** --fix: lines carry its fields (empty for a valid code). */
  fix?: boolean;
  /** Counts the blank lines skipped. */
  blanks?: Blanks;
}

export interface FastLines {
  /** The LinesHandler to give eachLine. */
  lines: LinesHandler;
  /** How many lines it took itself as valid (each a valid code without warning, or a repeated one). */
  valid(): number;
  /** How many of those were codes seen before (each with the duplicate warning). */
  repeated(): number;
}

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const digitsOf = (n: number) =>
  n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : n < 1000000 ? 6 : n < 10000000 ? 7 : String(n).length;

/**
 * The fast path for one kind and output mode. `slow` gets every line it does not write itself
 * (after emitLine's CR and blank-line handling), in order, with its line number.
 */
export function fastLines(kind: 'upc' | 'isrc', mode: FastMode, currentYear: number, w: ByteWriter, slow: LineHandler, options: FastOptions): FastLines {
  const { duplicates, invalid, blanks } = options;
  const fix = options.fix === true;
  const write = mode !== 'count';
  const textMode = mode === 'count' ? 'plain' : mode;
  // Rows and JSON lines carry the line number (the last field of a row); counted lines none.
  const numbered = options.lineNumbers && mode !== 'count';
  // Stamps by code length, then by the line number's digits (made when first needed).
  const stamps: Stamp[][] = [[], [], []];
  const looseStamps: LooseStamp[][] = [[], [], []];
  const stampFor = (len: number, digits: number) => (stamps[len - 12]![digits] ??= stamp(lineText(kind, textMode, len, digits, fix), len));
  const looseFor = (len: number, digits: number) => (looseStamps[len - 12]![digits] ??= looseStamp(lineText(kind, textMode, len, digits, fix)));
  // By code length, then the line number's digits, then the first place's.
  const repeatedStamps: RepeatedStamp[][][] = [[], [], []];
  const repeatedFor = (len: number, digits: number, placeDigits: number) =>
    ((repeatedStamps[len - 12]![digits] ??= [])[placeDigits] ??= repeatedStamp(repeatedText(kind, textMode, len, digits, fix), len, placeDigits));
  // A view of the writer's current buffer, for the repeated lines' word writes.
  let viewBuf: Uint8Array | undefined;
  let outView: DataView | undefined;
  let valid = 0;
  let repeatedCount = 0;
  const batch = newBatch();

  // The normalized code of a loosely written line: 16 bytes fit "ISRC" + 12.
  const scratch = new Uint8Array(16);
  /** Writes the line of bytes[s..e) if it is a plain valid code once spaces and hyphens are gone and not seen before; false if not. */
  const loose = (b: Buffer, s: number, e: number, line: number): boolean => {
    if (e - s > 64) return false;
    // Its last byte first: most damaged lines end in one no loose code has (a quote, a non-ASCII
    // space, a letter of a UPC) and need not be read through.
    const last = b[e - 1]!;
    if (!((last >= 48 && last <= 57) || last === 32 || last === 45 || (kind === 'isrc' && ((last >= 65 && last <= 90) || (last >= 97 && last <= 122)))))
      return false;
    let n = 0;
    let changed = false;
    for (let i = s; i < e; i++) {
      let c = b[i]!;
      if (c === 32 || c === 45) {
        changed = true;
        continue;
      }
      if (kind === 'isrc' && c >= 97 && c <= 122) {
        c -= 32;
        changed = true;
      } else if (!((c >= 48 && c <= 57) || (kind === 'isrc' && c >= 65 && c <= 90))) return false;
      if (n === 16) return false;
      scratch[n++] = c;
    }
    // A bare code of a code's length was checked as it is by scanBatch (its newline is where the
    // guess looked): it is invalid, or a code seen before. Most invalid lines end here.
    if (!changed && (kind === 'isrc' ? n === 12 : n >= 12 && n <= 14)) return false;
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
    const key = kind === 'isrc' ? isrcKeyAt(scratch, from) : upcKeyAt(scratch, 0, len);
    if (duplicates.firstOrAdd(key, line) !== 0) return false;
    if (!write) return true;
    const t = looseFor(len, numbered ? digitsOf(line) : 0);
    w.reserve(t.head.length + (e - s) + t.tail.length);
    const out = w.buf;
    let pos = w.pos;
    out.set(t.head, pos);
    pos += t.head.length;
    // A loop: Buffer#copy is a call through several checks, for at most 64 bytes.
    for (let i = s; i < e; i++) out[pos++] = b[i]!;
    out.set(t.tail, pos);
    if (t.code >= 0) for (let k = 0; k < len; k++) out[pos + t.code + k] = scratch[from + k]!;
    if (t.display >= 0) {
      const d = pos + t.display;
      for (let k = 0; k < 12; k++) out[d + k + (k < 2 ? 0 : k < 5 ? 1 : k < 7 ? 2 : 3)] = scratch[from + k]!;
    }
    if (t.number >= 0) lineDigits.write(out, pos + t.number, line);
    w.pos = pos + t.tail.length;
    return true;
  };

  // The line number as ASCII digits, counted up from line to line.
  const lineDigits = new LineDigits();

  /** Writes the line of the bare code bytes[s..s+len), first seen on line `first`: one copy of its stamp, then its holes. */
  const repeated = (b: Buffer, input: DataView, s: number, len: number, line: number, first: number): void => {
    const placeDigits = digitsOf(first);
    const t = repeatedFor(len, numbered ? digitsOf(line) : 0, placeDigits);
    w.reserve(t.line.length);
    const out = w.buf;
    if (out !== viewBuf) {
      viewBuf = out;
      outView = viewOf(out);
    }
    const view = outView!;
    const pos = w.pos;
    out.set(t.line, pos);
    // The code's first 12 bytes as three words, as for a valid line.
    const w0 = input.getUint32(s, true);
    const w1 = input.getUint32(s + 4, true);
    const w2 = input.getUint32(s + 8, true);
    const a = pos + t.first;
    const z = pos + t.second;
    view.setUint32(a, w0, true);
    view.setUint32(a + 4, w1, true);
    view.setUint32(a + 8, w2, true);
    view.setUint32(z, w0, true);
    view.setUint32(z + 4, w1, true);
    view.setUint32(z + 8, w2, true);
    for (let k = 12; k < len; k++) out[a + k] = out[z + k] = b[s + k]!;
    if (t.display >= 0) {
      const d = pos + t.display;
      view.setUint16(d, w0 & 0xffff, true);
      view.setUint16(d + 3, w0 >>> 16, true);
      out[d + 5] = w1 & 0xff;
      view.setUint16(d + 7, (w1 >>> 8) & 0xffff, true);
      out[d + 10] = w1 >>> 24;
      view.setUint32(d + 11, w2, true);
    }
    for (let k = pos + t.place + placeDigits - 1, n = first; k >= pos + t.place; k--) {
      const q = (n / 10) | 0;
      out[k] = 48 + n - q * 10;
      n = q;
    }
    if (t.number >= 0) lineDigits.write(out, pos + t.number, line);
    w.pos = pos + t.line.length;
  };

  const lines: LinesHandler = (b, p, stop, firstLine) => {
    const input = viewOf(b);
    let out = w.buf;
    let view = viewOf(out);
    let pos = w.pos;
    // out[pos..ready) already holds copies of `readyFor`'s text, the first starting at pos.
    let ready = 0;
    let readyFor: Stamp | undefined;
    let line = firstLine;
    // The stamps for this chunk's first width of line number: changes only at a power of ten.
    let digits = numbered ? digitsOf(line) : 0;
    let nextWidthAt = numbered ? 10 ** digits : Infinity;
    // The stamps for the current width, by code length (made on first use).
    let current: (Stamp | undefined)[] = [undefined, undefined, undefined];
    for (; p < stop; ) {
      // Phase 1: where each line of the batch starts and ends, whether it is a plain valid code,
      // and its key; phase 2: the index reads the slots of all those keys at once, so that their
      // cache misses overlap; phase 3 (below) takes the lines in order, each look-up now a hit.
      const count = scanBatch(kind, currentYear, b, p, stop, batch);
      // The leading run of plain codes is looked up and added at once (nothing else can add a
      // code before them); the slots of the plain codes after it are read ahead.
      const run = batch.run;
      duplicates.firstOrAddRun(batch.keys, run, line, batch.firsts);
      duplicates.warm(batch.keys, run, batch.plain);
      let plain = 0;
      for (let i = 0; i < count; i++, line++) {
        p = batch.starts[i]!;
        const next = batch.nexts[i]!;
        const len = batch.lengths[i]!;
        if (line >= nextWidthAt) {
          digits++;
          nextWidthAt *= 10;
          current = [undefined, undefined, undefined];
        }
        // Where a bare code was first seen (0: nowhere before).
        const first = len === 0 ? 0 : plain < run ? batch.firsts[plain++]! : duplicates.firstOrAdd(batch.keys[plain++]!, line);
        if (len === 0 || first !== 0) {
          // next - 1 is the line's newline (after CR for CRLF).
          const e = next - 1;
          const end = e > p && b[e - 1] === 13 ? e - 1 : e;
          w.pos = pos;
          // Seen on an earlier line: written here. First given as an argument (a negative place),
          // or not written at all (a table, --invalid-only): the general path.
          if (first > 0 && write) {
            repeated(b, input, p, len, line, first);
            valid++;
            repeatedCount++;
          } else if (loose(b, p, end, line)) valid++;
          else if (invalid === undefined || end === p || !invalid(b, p, end, line)) emitLine(b, p, e, slow, line, blanks);
          if (w.buf !== out) {
            out = w.buf;
            view = viewOf(out);
          }
          pos = w.pos;
          ready = 0;
          continue;
        }
        valid++;
        const start = p;
        if (!write) continue;

        const s = current[len - 12] ?? (current[len - 12] = stampFor(len, digits));
        if (pos + s.size > ready || readyFor !== s) {
          // As many copies as there are plain codes of this length coming in the batch: where
          // invalid lines are frequent, a whole block for a line or two cost more than the line.
          let ahead = 1;
          while (ahead < BLOCK && i + ahead < count && batch.lengths[i + ahead] === len) ahead++;
          const bytes = ahead * s.size;
          if (pos + bytes > out.length) {
            w.pos = pos;
            w.reserve(s.block.length);
            out = w.buf;
            view = viewOf(out);
            pos = w.pos;
          }
          out.set(s.views[ahead]!, pos);
          ready = pos + bytes;
          readyFor = s;
        }
        // The code's first 12 bytes as three little-endian words: byte i of the code is byte i%4 of word i/4.
        const w0 = input.getUint32(start, true);
        const w1 = input.getUint32(start + 4, true);
        const w2 = input.getUint32(start + 8, true);
        const a = pos + s.first;
        const z = pos + s.second;
        view.setUint32(a, w0, true);
        view.setUint32(a + 4, w1, true);
        view.setUint32(a + 8, w2, true);
        view.setUint32(z, w0, true);
        view.setUint32(z + 4, w1, true);
        view.setUint32(z + 8, w2, true);
        for (let k = 12; k < len; k++) out[a + k] = out[z + k] = b[start + k]!;
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
        if (s.number >= 0) {
          lineDigits.write(out, pos + s.number, line);
        }
        pos += s.size;
      }
      p = batch.end;
    }
    w.pos = pos;
    return line - firstLine;
  };
  return { lines, valid: () => valid, repeated: () => repeatedCount };
}

/** One batch of lines as scanBatch found them. */
interface Batch {
  /** Where each line starts, and where the next one does (after its LF or CRLF). */
  starts: Int32Array;
  nexts: Int32Array;
  /** The code's length for a plain valid code (without its newline); 0 for any other line. */
  lengths: Uint8Array;
  /** The keys of the plain valid codes, in order; `plain` of them. */
  keys: Float64Array;
  plain: number;
  /** How many lines from the first are plain valid codes (the leading run); `firsts` for firstOrAddRun. */
  run: number;
  firsts: Int32Array;
  /** Where the line after the batch starts. */
  end: number;
}

const newBatch = (): Batch => ({
  starts: new Int32Array(WARM_BATCH),
  nexts: new Int32Array(WARM_BATCH),
  lengths: new Uint8Array(WARM_BATCH),
  keys: new Float64Array(WARM_BATCH),
  plain: 0,
  run: 0,
  firsts: new Int32Array(WARM_BATCH),
  end: 0,
});

/**
 * Splits up to WARM_BATCH lines of bytes[p..stop) into `batch`, finding which are plain valid
 * codes and their keys; the number of lines. Each line is read once here and not again to split
 * or check it.
 */
function scanBatch(kind: 'upc' | 'isrc', currentYear: number, b: Buffer, p: number, stop: number, batch: Batch): number {
  const { starts, nexts, lengths, keys } = batch;
  let plain = 0;
  let run = -1;
  let i = 0;
  for (; i < WARM_BATCH && p < stop; i++) {
    starts[i] = p;
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
    if (next !== 0 && (kind === 'isrc' ? plainValidIsrcAt(b, p, currentYear) : plainValidUpcLength(b, p, p + len) !== 0)) {
      keys[plain++] = kind === 'isrc' ? isrcKeyAt(b, p) : upcKeyAt(b, p, p + len);
      lengths[i] = len;
    } else {
      if (run < 0) run = plain;
      lengths[i] = 0;
      // The guess may have been another line's newline: search, with a short loop first (a call
      // to indexOf cost more than the whole line's check), then indexOf for a long line.
      // Always found: bytes[stop - 1] is a newline.
      let q = p;
      const near = Math.min(stop, p + 48);
      while (q < near && b[q] !== 10) q++;
      next = (q < near ? q : b.indexOf(10, q)) + 1;
    }
    nexts[i] = next;
    p = next;
  }
  batch.plain = plain;
  batch.run = run < 0 ? plain : run;
  batch.end = p;
  return i;
}
