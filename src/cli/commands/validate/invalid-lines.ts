// The bulk path for invalid lines: src/codes diagnoses the line from its bytes (diagnoseUpcBytes /
// diagnoseIsrcBytes) as small integers, one per problem, and each problem's JSON and text are
// made once, by the same formatter as the general path (problemsJson, reasonText), then copied
// as bytes into the output. No string, object or JSON per line; a line it does not know goes to
// the general path. test/unit/codes-cli.test.ts compares both paths' output byte for byte.
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

  /** The shape of d.specs[0..d.count) (with or without a repaired code), made on first use; undefined when no more may be made. */
  const shapeOf = (withRepair: boolean): Shape | undefined => {
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
  const head = ascii('{"input":"');
  // After the repaired code (JSON): its closing quote, and --fix's fields (the repair is valid).
  const repairedTail = ascii(fix ? '","fixed":"' : '"');
  const fixedValid = ascii('","fixed_valid":true');
  const lineHead = ascii(',"line":');
  const validField = ascii('\tvalid');
  const lineDigits = new LineDigits();

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
    let pos = w.pos;
    if (json) {
      pos = copy(out, pos, head);
      pos = d.quotes ? copyEscaped(out, pos, b, s, e) : copyRange(out, pos, b, s, e);
    } else pos = copyRange(out, pos, b, s, e);
    out.set(shape.body, pos);
    pos += shape.body.length;
    if (shape.after !== null) {
      pos = json && d.quotes ? copyEscaped(out, pos, b, s, e) : copyRange(out, pos, b, s, e);
      out.set(shape.after, pos);
      pos += shape.after.length;
    }
    const repaired = d.repaired;
    if (json) {
      if (repairedLength > 0) {
        pos = copyRange(out, pos, repaired, 0, repairedLength);
        pos = copy(out, pos, repairedTail);
        if (fix) pos = copy(out, copyRange(out, pos, repaired, 0, repairedLength), fixedValid);
      }
      if (lineNumbers) pos = lineDigits.write(out, copy(out, pos, lineHead), line);
      out[pos++] = 125;
    } else {
      if (lineNumbers) {
        // A row's last field (before --fix's).
        out[pos++] = 9;
        pos = lineDigits.write(out, pos, line);
      }
      if (fix) {
        out[pos++] = 9;
        if (repairedLength > 0) pos = copy(out, copyRange(out, pos, repaired, 0, repairedLength), validField);
        else out[pos++] = 9;
      }
    }
    out[pos++] = 10;
    w.pos = pos;
    return true;
  };
}

// Short copies as loops: a copy call costs more than a loop over a few bytes. Each takes one kind
// of source, so that its element reads stay monomorphic.

/** Copies a short constant to out at pos; returns the position after. */
function copy(out: Buffer, pos: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) out[pos + i] = bytes[i]!;
  return pos + bytes.length;
}

/** Copies bytes[s..e) to out at pos; returns the position after. */
function copyRange(out: Buffer, pos: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) out[pos++] = bytes[i]!;
  return pos;
}

/** copyRange with JSON's escape for quotes (the only character needing one in the lines diagnosed). */
function copyEscaped(out: Buffer, pos: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    const c = bytes[i]!;
    if (c === 34) out[pos++] = 92;
    out[pos++] = c;
  }
  return pos;
}
