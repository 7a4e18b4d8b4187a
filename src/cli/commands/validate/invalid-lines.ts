// The bulk path for invalid lines: src/codes diagnoses the line from its bytes (diagnoseUpcBytes /
// diagnoseIsrcBytes) as small integers, one per problem, and the output of each sequence of them
// (a line's shape) is made once, by the same formatter as the general path (problemsJson,
// reasonText), then copied as bytes into the output, one copy call a line. No string, object or
// JSON per line; a line it does not know goes to the general path.
// test/integration/validate-fast.test.ts compares both paths' output byte for byte.
import * as codes from '../../../codes/index.js';
import { ByteDiagnosis, problemOfSpec } from '../../../codes/index.js';
import { problemsJson, reasonText } from './format.js';
import { LineDigits } from './line-digits.js';
import type { Problem } from '../../../codes/index.js';
import type { Tally } from './tally.js';
import type { ByteWriter } from './writer.js';

// Bound once: the bundle reaches another chunk's exports through property getters (see fast.ts).
// SPEC too: it was read per problem, and its getter cost more than the diagnosis.
const { diagnoseIsrcBytes, diagnoseUpcBytes } = codes;
const SCIENTIFIC = codes.SPEC.scientific;
// Specs from here on name spreadsheet damage (SPEC in src/codes/bytes-invalid.ts).
const FIRST_DAMAGE = codes.SPEC.scientific;

/**
 * The output of one sequence of problems, ready to copy: everything from after the input to where
 * the repaired code goes (or to the line's end fields), made once per sequence ("line shape") and
 * then copied with one call per line. Scientific notation quotes the input in its message: its
 * body stops at the quote, and `after` follows a second copy of the input.
 */
interface Shape {
  body: Buffer;
  after: Buffer | null;
  /** The summary's counters of the sequence's problems, one per problem. */
  counters: { n: number }[];
}

/** The shapes of the sequences that start with one spec: the sequence of that spec alone (with and without a repaired code), and the longer ones. */
interface ShapeNode {
  plain?: Shape;
  repaired?: Shape;
  next?: Map<number, ShapeNode>;
}

/** Slots of the cache of one-problem shapes (a power of two). */
const CACHE_SIZE = 1024;

/** How many shapes are kept: beyond that, a line of a new shape goes to the general path (memory stays bounded whatever the input). */
const MAX_SHAPES = 20_000;

const ascii = (s: string) => Buffer.from(s, 'utf8');
// Stands for the input in a made problem: needs no escaping, and is no code's character.
const HOLE = '\u0001';

/** Bytes over the longest line this writes (40 input bytes, at most 8 problems): room reserved per line. */
const ROOM = 8192;

/**
 * The writer of invalid lines for one kind and output mode: true when it wrote (and counted) the
 * line bytes[s..e), false to leave it to the general path. `line`: its number, written in JSON
 * when lineNumbers.
 */
export function invalidLines(kind: 'upc' | 'isrc', mode: 'json' | 'plain', lineNumbers: boolean, w: ByteWriter, tally: Tally, fix = false) {
  const diagnose = kind === 'upc' ? diagnoseUpcBytes : diagnoseIsrcBytes;
  const d = new ByteDiagnosis();
  const json = mode === 'json';
  const roots = new Map<number, ShapeNode>();
  let shapes = 0;
  const mid = `","valid":false,"normalized":null,"kind":null${kind === 'isrc' ? ',"display":null' : ''},"problems":[`;
  const plainMid = '\tinvalid\t\t';

  // The shapes of one problem, also in a direct-mapped cache by spec: a Map look-up per line was
  // a visible share of a damaged line's cost.
  const cachedSpecs = new Float64Array(CACHE_SIZE).fill(-1);
  const cachedShapes: (Shape | undefined)[] = new Array(CACHE_SIZE).fill(undefined);

  /** The shape of d.specs[0..d.count) (with or without a repaired code), made on first use; undefined when no more may be made. */
  const shapeOf = (withRepair: boolean): Shape | undefined => {
    if (d.count === 1) {
      // Specs are non-negative 31-bit numbers: key * 2 + 1 for the shape with a repaired code.
      const key = d.specs[0]! * 2 + (withRepair ? 1 : 0);
      const slot = (key ^ (key >>> 11) ^ (key >>> 23)) & (CACHE_SIZE - 1);
      if (cachedSpecs[slot] === key) return cachedShapes[slot];
      const shape = shapeOfSequence(withRepair);
      if (shape !== undefined) {
        cachedSpecs[slot] = key;
        cachedShapes[slot] = shape;
      }
      return shape;
    }
    return shapeOfSequence(withRepair);
  };

  const shapeOfSequence = (withRepair: boolean): Shape | undefined => {
    let node: ShapeNode | undefined = roots.get(d.specs[0]!);
    if (node === undefined) {
      if (shapes >= MAX_SHAPES) return undefined;
      node = {};
      roots.set(d.specs[0]!, node);
    }
    for (let k = 1; k < d.count; k++) {
      const spec = d.specs[k]!;
      let next: ShapeNode | undefined = node.next?.get(spec);
      if (next === undefined) {
        if (shapes >= MAX_SHAPES) return undefined;
        next = {};
        (node.next ??= new Map()).set(spec, next);
      }
      node = next;
    }
    const made = withRepair ? node.repaired : node.plain;
    if (made !== undefined) return made;
    if (shapes >= MAX_SHAPES) return undefined;
    shapes++;
    const problems: Problem[] = [];
    for (let k = 0; k < d.count; k++) problems.push(problemOfSpec(d.specs[k]!, HOLE));
    let text: string;
    if (json) {
      text = `${mid}${problemsJson(problems).slice(1, -1)}]`;
      // Scientific notation's message quotes the input (the HOLE, JSON-escaped by problemsJson).
      text = text.replace('\\u0001', HOLE);
      if (withRepair) text += ',"repaired":"';
      else if (fix) text += ',"fixed":null,"fixed_valid":null';
    } else text = plainMid + reasonText(problems);
    const [body, after] = text.split(HOLE) as [string, string | undefined];
    const shape: Shape = { body: ascii(body), after: after === undefined ? null : ascii(after), counters: problems.map((p) => tally.counter(p.code)) };
    if (withRepair) node.repaired = shape;
    else node.plain = shape;
    return shape;
  };
  const head = constant('{"input":"');
  // After the repaired code (JSON): its closing quote, and --fix's fields (the repair is valid).
  const repairedTail = constant(fix ? '","fixed":"' : '"');
  const fixedValid = constant('","fixed_valid":true');
  const lineHead = constant(',"line":');
  const validField = constant('\tvalid');
  const lineDigits = new LineDigits();
  const repairedView = viewOf(d.repaired);
  // Views of the current output buffer and input chunk, for the short copies (made when they change).
  let outBuf: Buffer | undefined;
  let outView = viewOf(d.repaired);
  let inBuf: Buffer | undefined;
  let inView = outView;

  return (b: Buffer, s: number, e: number, line: number): boolean => {
    if (!diagnose(b, s, e, d) || d.count === 0) return false;
    const repairedLength = d.repairedLength;
    // --fix of damage undone into a code still invalid shows that code: the general path's.
    if (fix && repairedLength === 0) {
      for (let k = 0; k < d.count; k++) {
        const type = d.specs[k]! >>> 24;
        if (type === SCIENTIFIC) break;
        if (type >= FIRST_DAMAGE) return false;
      }
    }
    // In a row the repaired code is written only by --fix; in JSON always (with its own shape).
    const shape = shapeOf(json && repairedLength > 0);
    if (shape === undefined) return false;
    tally.checked++;
    tally.invalid++;
    const counters = shape.counters;
    for (let k = 0; k < counters.length; k++) counters[k]!.n++;
    w.reserve(ROOM);
    const out = w.buf;
    if (out !== outBuf) {
      outBuf = out;
      outView = viewOf(out);
    }
    if (b !== inBuf) {
      inBuf = b;
      inView = viewOf(b);
    }
    const ov = outView;
    const escapeQuotes = json && d.quotes;
    let pos = w.pos;
    if (json) pos = copyView(ov, pos, head, 0, head.byteLength);
    pos = escapeQuotes ? copyEscaped(out, ov, pos, b, inView, s, e) : copyView(ov, pos, inView, s, e);
    out.set(shape.body, pos);
    pos += shape.body.length;
    if (shape.after !== null) {
      pos = escapeQuotes ? copyEscaped(out, ov, pos, b, inView, s, e) : copyView(ov, pos, inView, s, e);
      out.set(shape.after, pos);
      pos += shape.after.length;
    }
    if (json) {
      if (repairedLength > 0) {
        pos = copyView(ov, pos, repairedView, 0, repairedLength);
        pos = copyView(ov, pos, repairedTail, 0, repairedTail.byteLength);
        if (fix) pos = copyView(ov, copyView(ov, pos, repairedView, 0, repairedLength), fixedValid, 0, fixedValid.byteLength);
      }
      if (lineNumbers) pos = lineDigits.write(out, copyView(ov, pos, lineHead, 0, lineHead.byteLength), line);
      out[pos++] = 125;
    } else {
      if (lineNumbers) {
        // A row's last field (before --fix's).
        out[pos++] = 9;
        pos = lineDigits.write(out, pos, line);
      }
      if (fix) {
        out[pos++] = 9;
        if (repairedLength > 0) pos = copyView(ov, copyView(ov, pos, repairedView, 0, repairedLength), validField, 0, validField.byteLength);
        else out[pos++] = 9;
      }
    }
    out[pos++] = 10;
    w.pos = pos;
    return true;
  };
}

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const constant = (s: string) => viewOf(ascii(s));

// Short copies four bytes at a time: a copy call (~20 ns) costs more than a few words, and a
// byte loop about three times a word loop.

/** Copies bytes[s..e) of `from` to `to` at pos; returns the position after. */
function copyView(to: DataView, pos: number, from: DataView, s: number, e: number): number {
  let i = s;
  for (; i + 4 <= e; i += 4, pos += 4) to.setUint32(pos, from.getUint32(i, true), true);
  for (; i < e; i++) to.setUint8(pos++, from.getUint8(i));
  return pos;
}

/** Copies bytes[s..e) to out at pos, quotes escaped for JSON (the only character needing it in the lines diagnosed); returns the position after. */
function copyEscaped(out: Buffer, to: DataView, pos: number, bytes: Uint8Array, from: DataView, s: number, e: number): number {
  // The parts between quotes as words; only the search for quotes reads byte by byte.
  let start = s;
  for (let i = s; i < e; i++) {
    if (bytes[i] !== 34) continue;
    pos = copyView(to, pos, from, start, i);
    out[pos++] = 92;
    out[pos++] = 34;
    start = i + 1;
  }
  return copyView(to, pos, from, start, e);
}
