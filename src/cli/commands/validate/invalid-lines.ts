// The bulk path for invalid lines: src/codes diagnoses the line from its bytes (diagnoseUpcBytes /
// diagnoseIsrcBytes) as small integers, one per problem, and each problem's JSON and text are
// made once, by the same formatter as the general path (problemsJson, reasonText), then copied
// as bytes into the output. No string, object or JSON per line; a line it does not know goes to
// the general path. test/unit/codes-cli.test.ts compares both paths' output byte for byte.
import * as codes from '../../../codes/index.js';
import { ByteDiagnosis, problemOfSpec } from '../../../codes/index.js';
import { problemsJson, reasonText } from './format.js';
import { LineDigits } from './line-digits.js';
import type { Tally } from './tally.js';
import type { ByteWriter } from './writer.js';

// Bound once: the bundle reaches another chunk's exports through property getters (see fast.ts).
// SPEC too: it was read per problem, and its getter cost more than the diagnosis.
const { diagnoseIsrcBytes, diagnoseUpcBytes } = codes;
const SCIENTIFIC = codes.SPEC.scientific;
// Specs from here on name spreadsheet damage (SPEC in src/codes/bytes-invalid.ts).
const FIRST_DAMAGE = codes.SPEC.scientific;

/** A problem's output, ready to copy; for scientific notation, the parts around the input. */
interface Made {
  json: Uint8Array;
  reason: Uint8Array;
  /** After the input (scientific notation quotes it); empty otherwise. */
  jsonAfter: Uint8Array;
  reasonAfter: Uint8Array;
  /** What goes before the problems, then json / reason: for the first problem, one copy instead of two. */
  jsonFirst: Uint8Array;
  reasonFirst: Uint8Array;
  counter: { n: number };
}

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
  const made = new Map<number, Made>();
  const mid = `","valid":false,"normalized":null,"kind":null${kind === 'isrc' ? ',"display":null' : ''},"problems":[`;
  const plainMid = '\tinvalid\t\t';
  const make = (spec: number): Made => {
    const p = problemOfSpec(spec, HOLE);
    const [json, jsonAfter = ''] = problemsJson([p]).slice(1, -1).split('\\u0001');
    const [reason, reasonAfter = ''] = reasonText([p]).split(HOLE);
    const m = {
      json: ascii(json!),
      reason: ascii(reason!),
      jsonAfter: ascii(jsonAfter),
      reasonAfter: ascii(reasonAfter),
      jsonFirst: ascii(mid + json!),
      reasonFirst: ascii(plainMid + reason!),
      counter: tally.counter(p.code),
    };
    if (spec >>> 24 !== SCIENTIFIC) made.set(spec, m);
    return m;
  };
  let scientific: Made | undefined;
  const head = ascii('{"input":"');
  const repairedHead = ascii(',"repaired":"');
  const lineHead = ascii(',"line":');
  const fixedHead = ascii(',"fixed":"');
  const fixedValid = ascii('","fixed_valid":true');
  const fixedNone = ascii(',"fixed":null,"fixed_valid":null');
  const lineDigits = new LineDigits();

  return (b: Buffer, s: number, e: number, line: number): boolean => {
    if (!diagnose(b, s, e, d) || d.count === 0) return false;
    // --fix of damage undone into a code still invalid shows that code: the general path's.
    if (fix && d.repairedLength === 0) {
      for (let k = 0; k < d.count; k++) {
        const type = d.specs[k]! >>> 24;
        if (type === SCIENTIFIC) break;
        if (type >= FIRST_DAMAGE) return false;
      }
    }
    tally.checked++;
    tally.invalid++;
    w.reserve(ROOM);
    const out = w.buf;
    const json = mode === 'json';
    let pos = json ? put(out, put(out, w.pos, head), b, s, e, true) : put(out, w.pos, b, s, e, false);
    for (let k = 0; k < d.count; k++) {
      const spec = d.specs[k]!;
      const m = spec >>> 24 === SCIENTIFIC ? (scientific ??= make(spec)) : (made.get(spec) ?? make(spec));
      m.counter.n++;
      if (k === 0) pos = put(out, pos, json ? m.jsonFirst : m.reasonFirst);
      else {
        if (json) out[pos++] = 44;
        else {
          out[pos++] = 59;
          out[pos++] = 32;
        }
        pos = put(out, pos, json ? m.json : m.reason);
      }
      const after = json ? m.jsonAfter : m.reasonAfter;
      if (after.length > 0) pos = put(out, put(out, pos, b, s, e, json), after);
    }
    if (json) {
      out[pos++] = 93;
      if (d.repairedLength > 0) {
        pos = put(out, pos, repairedHead);
        pos = put(out, pos, d.repaired, 0, d.repairedLength, false);
        out[pos++] = 34;
      }
      if (fix) {
        if (d.repairedLength > 0) pos = put(out, put(out, put(out, pos, fixedHead), d.repaired, 0, d.repairedLength, false), fixedValid);
        else pos = put(out, pos, fixedNone);
      }
      if (lineNumbers) pos = lineDigits.write(out, put(out, pos, lineHead), line);
      out[pos++] = 125;
    } else {
      if (lineNumbers) {
        // A row's last field (before --fix's).
        out[pos++] = 9;
        pos = lineDigits.write(out, pos, line);
      }
      if (fix) {
        out[pos++] = 9;
        if (d.repairedLength > 0) {
          pos = put(out, pos, d.repaired, 0, d.repairedLength, false);
          pos = put(out, pos, VALID_FIELD);
        } else out[pos++] = 9;
      }
    }
    out[pos++] = 10;
    w.pos = pos;
    return true;
  };
}

const VALID_FIELD = ascii('\tvalid');

/** Copies bytes[s..e) (all of it by default) to out at pos, quotes escaped for JSON; returns the position after. */
function put(out: Uint8Array, pos: number, bytes: Uint8Array, s = 0, e = bytes.length, json = false): number {
  // A copy call costs more than a short loop: only for the long parts (the problems' text).
  if (!json && e - s > 32) {
    out.set(s === 0 && e === bytes.length ? bytes : bytes.subarray(s, e), pos);
    return pos + e - s;
  }
  for (let i = s; i < e; i++) {
    const c = bytes[i]!;
    if (json && c === 34) out[pos++] = 92;
    out[pos++] = c;
  }
  return pos;
}
