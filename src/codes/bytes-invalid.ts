// Byte-level diagnosis of the common invalid lines of bulk input (a wrong check digit or length,
// a letter among the digits or out of place in an ISRC, other separators, and spreadsheet damage:
// scientific notation, a trailing .0, quotes, lost leading zeros). It says what checkUpc /
// checkIsrc followed by diagnoseDamage would say, as small integers ("specs", one per problem)
// instead of Problem objects, so that the bulk path can write each problem's text serialised
// once (problemOfSpec builds it, from the same constructors as the engine). A line it does not
// fully understand (a valid code, non-ASCII, controls, anything unusual) gets false: the general
// path takes it. test/unit/codes-bytes-invalid.test.ts holds it to the engine on random input.
// Made to read a line as few times as it can (issue 25's target: a damaged line at most 1.5x a
// valid one's cost): one pass classifies its bytes, the damage is told from that, and the
// code's characters are checked and copied as the repair in one more.
import { apostropheProblem, decimalSuffixProblem, lostLeadingZeroProblem, quotedProblem, scientificProblem, textFormulaProblem } from './damage.js';
import { badCharacterProblem, moreBadCharactersProblem, MAX_CHAR_PROBLEMS, nonAsciiProblem } from './chars.js';
import { badFormatProblem, isrcLengthProblem, LETTER_OR_DIGIT } from './isrc.js';
import { badCheckDigitProblem, DIGIT, gtin14IndicatorProblem, lengthProblem } from './upc.js';
import type { Problem } from './types.js';

/** What a spec's type byte means; a spec is type << 24 | a << 16 | b << 8 | c. */
export const SPEC = {
  badCheckDigit: 1, // a = actual, b = expected, c = position
  upcLength: 2, // a = digits
  gtin14Indicator: 3, // a = first digit
  upcBadCharacter: 4, // a = the byte, c = position
  upcMoreBadCharacters: 5, // c = how many more
  isrcBadCharacter: 6, // a = the byte, c = position
  isrcMoreBadCharacters: 7, // c = how many more
  badFormat: 8, // a = the byte found, b = index in the code, c = position
  isrcLength: 9, // a = characters
  scientific: 10, // the message quotes the input: see problemOfSpec
  quoted: 11, // a = opening quote, b = closing quote
  apostrophe: 12,
  decimalSuffix: 13, // a = separator, b = zeros
  lostLeadingZero: 14, // a = digits
  textFormula: 15, // a = 1 for the CSV-quoted form
  oddSpace: 16, // a, b = the code point's high and low bytes, c = position
} as const;

const spec = (type: number, a = 0, b = 0, c = 0) => (type << 24) | (a << 16) | (b << 8) | c;

/** The Problem a spec stands for; `input` is the line (only scientific notation quotes it). */
export function problemOfSpec(s: number, input: string): Problem {
  const a = (s >>> 16) & 0xff;
  const b = (s >>> 8) & 0xff;
  const c = s & 0xff;
  switch (s >>> 24) {
    case SPEC.badCheckDigit:
      return badCheckDigitProblem(a, b, c);
    case SPEC.upcLength:
      return lengthProblem(a);
    case SPEC.gtin14Indicator:
      return gtin14IndicatorProblem(a);
    case SPEC.upcBadCharacter:
      return badCharacterProblem(String.fromCharCode(a), c, DIGIT);
    case SPEC.upcMoreBadCharacters:
      return moreBadCharactersProblem(c, DIGIT);
    case SPEC.isrcBadCharacter:
      return badCharacterProblem(String.fromCharCode(a), c, LETTER_OR_DIGIT);
    case SPEC.isrcMoreBadCharacters:
      return moreBadCharactersProblem(c, LETTER_OR_DIGIT);
    case SPEC.badFormat:
      return badFormatProblem(b, String.fromCharCode(a), c);
    case SPEC.isrcLength:
      return isrcLengthProblem(a);
    case SPEC.scientific:
      return scientificProblem(input);
    case SPEC.quoted:
      return quotedProblem(String.fromCharCode(a), String.fromCharCode(b));
    case SPEC.apostrophe:
      return apostropheProblem();
    case SPEC.decimalSuffix:
      return decimalSuffixProblem(String.fromCharCode(a) + '0'.repeat(b));
    case SPEC.lostLeadingZero:
      return lostLeadingZeroProblem(a);
    case SPEC.textFormula:
      return textFormulaProblem(a === 1);
    case SPEC.oddSpace:
      return nonAsciiProblem(String.fromCharCode((a << 8) | b), c);
    default:
      throw new RangeError(`problemOfSpec: unknown spec ${s}`);
  }
}

/** A diagnosis, reused from line to line: specs[0..count) and, when certain, the repaired code. */
export class ByteDiagnosis {
  readonly specs = new Int32Array(16);
  count = 0;
  readonly repaired = new Uint8Array(MAX_LINE);
  /** 0: no repaired code. */
  repairedLength = 0;
  /** Where each kept character of an ISRC was (1-based, in the part being checked). */
  readonly positions = new Uint8Array(48);
  readonly code = new Uint8Array(48);
  /** Whether the line has a double quote (which JSON output escapes). */
  quotes = false;

  push(s: number): void {
    this.specs[this.count++] = s;
  }
}

/** Longer lines are left to the general path (the counts above fit a byte). */
const MAX_LINE = 40;

/**
 * The code point of the non-ASCII space (as nonAsciiProblem names them) whose UTF-8 bytes start
 * at b[i], or 0: no-break U+00A0, U+2000-U+200B (en quad to zero width), U+2028, U+2029, narrow
 * no-break U+202F, U+205F, ideographic U+3000. Its length is 2 for U+00A0, else 3.
 */
function oddSpaceAt(b: Uint8Array, i: number, e: number): number {
  const c = b[i]!;
  if (c === 0xc2) return i + 1 < e && b[i + 1] === 0xa0 ? 0xa0 : 0;
  if (i + 2 >= e) return 0;
  const c1 = b[i + 1]!;
  const c2 = b[i + 2]!;
  if (c === 0xe2 && c1 === 0x80 && ((c2 >= 0x80 && c2 <= 0x8b) || c2 === 0xa8 || c2 === 0xa9 || c2 === 0xaf)) return 0x2000 + (c2 - 0x80);
  if (c === 0xe2 && c1 === 0x81 && c2 === 0x9f) return 0x205f;
  if (c === 0xe3 && c1 === 0x80 && c2 === 0x80) return 0x3000;
  return 0;
}

// Byte classes, as bits: one pass over a line ORs its bytes' classes together (classify), and
// the kind of damage is then told from that mask instead of a pass per form tried.
const C_DIGIT = 1;
const C_UPPER = 2;
const C_LOWER = 4;
const C_SPACE = 8;
const C_HYPHEN = 16;
/** '.' and ',': a decimal suffix or separator. */
const C_DOT = 32;
const C_QUOTE = 64;
const C_APOSTROPHE = 128;
const C_EQUALS = 256;
const C_PLUS = 512;
/** Any other printable ASCII character. */
const C_OTHER = 1024;
/** A byte of a non-ASCII character. */
const C_HIGH = 2048;
/** Controls, DEL and a backslash: never a line this diagnoses as plain ASCII. */
const C_BAD = 4096;
const CLASSES = new Uint16Array(256);
for (let c = 0; c < 256; c++) {
  CLASSES[c] =
    c >= 48 && c <= 57
      ? C_DIGIT
      : c >= 65 && c <= 90
        ? C_UPPER
        : c >= 97 && c <= 122
          ? C_LOWER
          : c === 32
            ? C_SPACE
            : c === 45
              ? C_HYPHEN
              : c === 46 || c === 44
                ? C_DOT
                : c === 34
                  ? C_QUOTE
                  : c === 39
                    ? C_APOSTROPHE
                    : c === 61
                      ? C_EQUALS
                      : c === 43
                        ? C_PLUS
                        : c >= 128
                          ? C_HIGH
                          : c < 32 || c === 127 || c === 92
                            ? C_BAD
                            : C_OTHER;
}

/** The classes of bytes b[s..e) ORed together (C_HIGH alone for a line with a non-ASCII byte); notes in `out` whether there is a double quote. */
function classify(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): number {
  let mask = 0;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    // A non-ASCII byte: only the odd-space paths take such a line, and they read every byte
    // themselves (and take no quote).
    if (c >= 128) {
      out.quotes = false;
      return C_HIGH;
    }
    mask |= CLASSES[c]!;
  }
  out.quotes = (mask & C_QUOTE) !== 0;
  return mask;
}

/** What classify gives for a line of printable ASCII other than a backslash, not starting or ending with a space. */
const plainAsciiMask = (b: Uint8Array, s: number, e: number, mask: number) => (mask & (C_HIGH | C_BAD)) === 0 && b[s] !== 32 && b[e - 1] !== 32;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isQuote = (c: number | undefined) => c === 34 || c === 39;

const NOT_QUOTED = 0;
const APOSTROPHE = 1;
const QUOTED = 2;

/**
 * Excel's text formula around the line bytes[s..e): ="…" (spaces allowed after the =), or
 * "=""…""" (its CSV quoting kept); noted in `out`. The code inside is [start, end) in `at`;
 * false when the line is not one.
 */
function formula(b: Uint8Array, s: number, e: number, out: ByteDiagnosis, at: Int32Array): boolean {
  if (b[s] === 61) {
    let i = s + 1;
    while (i < e && b[i] === 32) i++;
    if (e - i < 2 || b[i] !== 34 || b[e - 1] !== 34) return false;
    out.push(spec(SPEC.textFormula, 0));
    at[0] = i + 1;
    at[1] = e - 1;
    return true;
  }
  if (e - s >= 7 && b[s] === 34 && b[s + 1] === 61 && b[s + 2] === 34 && b[s + 3] === 34 && b[e - 1] === 34 && b[e - 2] === 34 && b[e - 3] === 34) {
    out.push(spec(SPEC.textFormula, 1));
    at[0] = s + 4;
    at[1] = e - 3;
    return true;
  }
  return false;
}
const inside = new Int32Array(2);

/** Spreadsheet quoting of the line bytes[s..e) (surrounding quotes, or a leading apostrophe), noted in `out`. */
function unquote(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): number {
  if (e - s >= 2 && isQuote(b[s]) && isQuote(b[e - 1])) {
    out.push(spec(SPEC.quoted, b[s]!, b[e - 1]!));
    return QUOTED;
  }
  if (b[s] === 39) {
    out.push(spec(SPEC.apostrophe));
    return APOSTROPHE;
  }
  return NOT_QUOTED;
}

// The digit sums of the run gatherDigits last read: digits at even and at odd indexes.
let evenSum = 0;
let oddSum = 0;

/**
 * Copies the run of digits from b[p] (up to q) into out.repaired as it reads them, summing them
 * for the check digit: one pass for what was a scan, a check and a copy. Returns where the run ends.
 */
function gatherDigits(b: Uint8Array, p: number, q: number, out: ByteDiagnosis): number {
  const r = out.repaired;
  let even = 0;
  let odd = 0;
  let i = p;
  for (; i < q; i++) {
    const c = b[i]!;
    if (c < 48 || c > 57) break;
    r[i - p] = c;
    if (((i - p) & 1) === 0) even += c - 48;
    else odd += c - 48;
  }
  evenSum = even;
  oddSum = odd;
  return i;
}

const LOST_ZEROS = 0;
const PROBLEM = 1;
const VALID = 2;

/**
 * checkUpc on the n digits gatherDigits put in out.repaired, with lost leading zeros first (10 or
 * 11 digits that check): LOST_ZEROS (noted, and the repair padded with zeros), PROBLEM (checkUpc's
 * problem noted) or VALID (repairedLength not set: the caller decides).
 */
function checkGathered(out: ByteDiagnosis, n: number): number {
  const r = out.repaired;
  const check = r[n - 1]! - 48;
  // The check digit out of its sum; then weight 3 falls on the indexes of n's parity.
  let even = evenSum;
  let odd = oddSum;
  if (((n - 1) & 1) === 0) even -= check;
  else odd -= check;
  const sum = (n & 1) === 0 ? 3 * even + odd : 3 * odd + even;
  const expected = (10 - (sum % 10)) % 10;
  if ((n === 10 || n === 11) && expected === check) {
    out.push(spec(SPEC.lostLeadingZero, n));
    const zeros = 12 - n;
    for (let i = n - 1; i >= 0; i--) r[i + zeros] = r[i]!;
    for (let i = 0; i < zeros; i++) r[i] = 48;
    out.repairedLength = 12;
    return LOST_ZEROS;
  }
  if (n < 12 || n > 14) out.push(spec(SPEC.upcLength, n));
  else if (n === 14 && r[0] !== 48) out.push(spec(SPEC.gtin14Indicator, r[0]! - 48));
  else if (expected !== check) out.push(spec(SPEC.badCheckDigit, check, expected, n));
  else return VALID;
  return PROBLEM;
}

/** ^[+-]?\d+(?:[.,]\d+)?[eE][+]?\d+$ */
function isScientific(b: Uint8Array, s: number, e: number): boolean {
  let i = s;
  if (b[i] === 43 || b[i] === 45) i++;
  const d0 = i;
  while (i < e && isDigit(b[i]!)) i++;
  if (i === d0) return false;
  if (b[i] === 46 || b[i] === 44) {
    const d1 = ++i;
    while (i < e && isDigit(b[i]!)) i++;
    if (i === d1) return false;
  }
  if (b[i] !== 69 && b[i] !== 101) return false;
  i++;
  if (b[i] === 43) i++;
  const d2 = i;
  while (i < e && isDigit(b[i]!)) i++;
  return i > d2 && i === e;
}

/**
 * The problems of an invalid UPC line bytes[s..e) (no CR, not blank), as checkUpc and then
 * diagnoseDamage give them; false when the line is valid or not one this knows.
 */
export function diagnoseUpcBytes(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): boolean {
  out.count = 0;
  out.repairedLength = 0;
  const len = e - s;
  if (len === 0 || len > MAX_LINE) return false;
  const mask = classify(b, s, e, out);
  if (!plainAsciiMask(b, s, e, mask)) return mask === C_HIGH && upcOddSpaces(b, s, e, out);
  if (mask === C_DIGIT) {
    gatherDigits(b, s, e, out);
    return checkGathered(out, len) !== VALID;
  }
  // Scientific notation has a letter (E) and nothing but digits, '.', ',', '+' and '-' besides.
  if ((mask & (C_UPPER | C_LOWER)) !== 0 && (mask & ~(C_DIGIT | C_UPPER | C_LOWER | C_DOT | C_PLUS | C_HYPHEN)) === 0 && isScientific(b, s, e)) {
    out.push(spec(SPEC.scientific));
    return true;
  }
  if ((mask & ~(C_DIGIT | C_UPPER | C_LOWER)) === 0) {
    // Letters among digits: each is a bad character, as compact() reports them.
    let bad = 0;
    for (let i = s; i < e; i++) {
      if (isDigit(b[i]!)) continue;
      if (++bad <= MAX_CHAR_PROBLEMS) out.push(spec(SPEC.upcBadCharacter, b[i]!, 0, i - s + 1));
    }
    if (bad > MAX_CHAR_PROBLEMS) out.push(spec(SPEC.upcMoreBadCharacters, 0, 0, bad - MAX_CHAR_PROBLEMS));
    return true;
  }
  // Other punctuation among the digits, where no spreadsheet damage can apply (no quote, no '='
  // first, no '.' or ','); only digits, spaces and hyphens: a code written with separators, not this.
  if (b[s] !== 61 && (mask & (C_QUOTE | C_APOSTROPHE | C_DOT)) === 0) {
    if ((mask & ~(C_DIGIT | C_SPACE | C_HYPHEN)) === 0) return false;
    punctuationInside(b, s, e, out);
    return true;
  }
  // Spreadsheet damage: a text formula, quotes or a leading apostrophe, then digits, then perhaps ".0…".
  let p: number;
  let q: number;
  if (formula(b, s, e, out, inside)) {
    p = inside[0]!;
    q = inside[1]!;
    // The code inside is trimmed: only when there is nothing to trim.
    if (p >= q || b[p] === 32 || b[q - 1] === 32) return false;
  } else {
    const quoting = unquote(b, s, e, out);
    p = quoting === NOT_QUOTED ? s : s + 1;
    q = quoting === QUOTED ? e - 1 : e;
  }
  const end = gatherDigits(b, p, q, out);
  if (end === p) return false;
  if (end < q) {
    if (b[end] !== 46 || end + 1 === q) return false;
    for (let i = end + 1; i < q; i++) if (b[i] !== 48) return false;
    out.push(spec(SPEC.decimalSuffix, 46, q - end - 1));
  }
  if (out.count === 0) return false;
  // What is left is checked as a code: its problems follow the damage, or it is the repair.
  if (checkGathered(out, end - p) === VALID) out.repairedLength = end - p;
  return true;
}

/** Other punctuation among the digits (036000/241457): each character that is not a digit, space or hyphen is a bad character, as checkUpc reports them. */
function punctuationInside(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): void {
  let bad = 0;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (isDigit(c) || c === 32 || c === 45) continue;
    if (++bad <= MAX_CHAR_PROBLEMS) out.push(spec(SPEC.upcBadCharacter, c, 0, i - s + 1));
  }
  if (bad > MAX_CHAR_PROBLEMS) out.push(spec(SPEC.upcMoreBadCharacters, 0, 0, bad - MAX_CHAR_PROBLEMS));
}

/** A UPC line of digits and non-ASCII spaces: the spaces named, then what the digits are (the repair when valid). */
function upcOddSpaces(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): boolean {
  // One pass: the spaces named, the digits gathered (as gatherDigits does); anything else is the general path's.
  const r = out.repaired;
  let n = 0;
  let even = 0;
  let odd = 0;
  let position = 0;
  let found = 0;
  for (let i = s; i < e; ) {
    const c = b[i]!;
    position++;
    if (c < 128) {
      if (c < 48 || c > 57) return false;
      if ((n & 1) === 0) even += c - 48;
      else odd += c - 48;
      r[n++] = c;
      i++;
      continue;
    }
    const cp = oddSpaceAt(b, i, e);
    if (cp === 0 || ++found > MAX_CHAR_PROBLEMS) return false;
    out.push(spec(SPEC.oddSpace, cp >>> 8, cp & 0xff, position));
    i += cp === 0xa0 ? 2 : 3;
  }
  if (n === 0 || found === 0) return false;
  evenSum = even;
  oddSum = odd;
  if (checkGathered(out, n) === VALID) out.repairedLength = n;
  return true;
}

/** The classes each of an ISRC's 12 places takes when written compact in uppercase. */
const COMPACT_SHAPE = Uint16Array.of(
  C_UPPER,
  C_UPPER,
  C_UPPER | C_DIGIT,
  C_UPPER | C_DIGIT,
  C_UPPER | C_DIGIT,
  C_DIGIT,
  C_DIGIT,
  C_DIGIT,
  C_DIGIT,
  C_DIGIT,
  C_DIGIT,
  C_DIGIT,
);

/**
 * The common damaged ISRC, a compact uppercase code inside quotes or a text formula: when
 * b[p..p+12) is one of the right shape, copied to out.repaired in the same pass (what isrcCore
 * would give, with no problem); false otherwise, and isrcCore takes it.
 */
function compactIsrcInto(b: Uint8Array, p: number, out: ByteDiagnosis): boolean {
  const r = out.repaired;
  for (let i = 0; i < 12; i++) {
    const c = b[p + i]!;
    if ((CLASSES[c]! & COMPACT_SHAPE[i]!) === 0) return false;
    r[i] = c;
  }
  out.repairedLength = 12;
  return true;
}

const CLASS_LETTER = 1;
const CLASS_DIGIT = 2;
/** What each of the 12 positions of an ISRC accepts (letter, either, digit). */
const SHAPE = [1, 1, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2];

/** checkIsrc on b[s..e): pushes its problems and returns true, or false when it is valid (its compact form in out.code[from..from+12), from returned via out.repaired when repairing). */
function isrcCore(b: Uint8Array, s: number, e: number, out: ByteDiagnosis, repair: boolean): boolean {
  const code = out.code;
  const positions = out.positions;
  let n = 0;
  let bad = 0;
  for (let i = s; i < e; i++) {
    let c = b[i]!;
    if (c === 32 || c === 45) continue;
    if (c >= 97 && c <= 122) c -= 32;
    else if (!((c >= 65 && c <= 90) || isDigit(c))) {
      if (++bad <= MAX_CHAR_PROBLEMS) out.push(spec(SPEC.isrcBadCharacter, c, 0, i - s + 1));
      continue;
    }
    code[n] = c;
    positions[n++] = i - s + 1;
  }
  if (bad > 0) {
    if (bad > MAX_CHAR_PROBLEMS) out.push(spec(SPEC.isrcMoreBadCharacters, 0, 0, bad - MAX_CHAR_PROBLEMS));
    return true;
  }
  return isrcCode(out, n, repair);
}

/** The rest of checkIsrc once out.code[0..n) holds the code's letters and digits (uppercase): its problems pushed and true, or false when it is valid (then, when `repair`, the code in out.repaired). */
function isrcCode(out: ByteDiagnosis, n: number, repair: boolean): boolean {
  const code = out.code;
  const positions = out.positions;
  let from = 0;
  if (n > 12 && code[0] === 73 && code[1] === 83 && code[2] === 82 && code[3] === 67) from = 4;
  if (n - from !== 12) {
    out.push(spec(SPEC.isrcLength, n - from));
    return true;
  }
  let wrong = false;
  for (let i = 0; i < 12; i++) {
    const c = code[from + i]!;
    const cls = c <= 57 ? CLASS_DIGIT : CLASS_LETTER;
    if ((cls & SHAPE[i]!) === 0) {
      out.push(spec(SPEC.badFormat, c, i, positions[from + i]!));
      wrong = true;
    }
  }
  if (wrong) return true;
  if (repair) {
    for (let i = 0; i < 12; i++) out.repaired[i] = code[from + i]!;
    out.repairedLength = 12;
  }
  return false;
}

/**
 * The problems of an invalid ISRC line bytes[s..e) (no CR, not blank), as checkIsrc and then
 * diagnoseDamage give them; false when the line is valid (warnings are the general path's) or
 * not one this knows.
 */
export function diagnoseIsrcBytes(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): boolean {
  out.count = 0;
  out.repairedLength = 0;
  const len = e - s;
  if (len === 0 || len > MAX_LINE) return false;
  if (!plainAsciiMask(b, s, e, classify(b, s, e, out))) return isrcOddSpaces(b, s, e, out);
  let p: number;
  let q: number;
  if (formula(b, s, e, out, inside)) {
    p = inside[0]!;
    q = inside[1]!;
  } else {
    const quoting = unquote(b, s, e, out);
    p = quoting === NOT_QUOTED ? s : s + 1;
    q = quoting === QUOTED ? e - 1 : e;
  }
  if (out.count === 0) return isrcCore(b, s, e, out, false);
  // The code inside the quotes, trimmed: only when there is no space to trim.
  if (p === q || b[p] === 32 || b[q - 1] === 32) return false;
  if (q - p === 12 && compactIsrcInto(b, p, out)) return true;
  isrcCore(b, p, q, out, true);
  return true;
}

/**
 * An ISRC line of non-ASCII spaces around or inside a code of ASCII letters, digits (and spaces
 * or hyphens not at its ends): the spaces named, then the code checked, the repair when valid.
 * The common one, a compact code once the spaces are gone, in one pass: its characters checked
 * against their places and gathered as the repair as they are read. Anything else is the
 * general path's.
 */
function isrcOddSpaces(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): boolean {
  const r = out.repaired;
  let n = 0;
  let compact = true;
  let kept = 0;
  let firstKept = 0;
  let lastKept = 0;
  let position = 0;
  let found = 0;
  for (let i = s; i < e; ) {
    const c = b[i]!;
    position++;
    if (c < 128) {
      const cls = CLASSES[c]!;
      if (kept++ === 0) firstKept = c;
      lastKept = c;
      i++;
      if ((cls & (C_SPACE | C_HYPHEN)) !== 0) continue;
      const upper = cls === C_LOWER ? c - 32 : c;
      if ((cls & (C_DIGIT | C_UPPER | C_LOWER)) === 0) return false;
      if (n >= 12 || (CLASSES[upper]! & COMPACT_SHAPE[n]!) === 0) compact = false;
      r[n++] = upper;
      continue;
    }
    const cp = oddSpaceAt(b, i, e);
    if (cp === 0 || ++found > MAX_CHAR_PROBLEMS) return false;
    out.push(spec(SPEC.oddSpace, cp >>> 8, cp & 0xff, position));
    i += cp === 0xa0 ? 2 : 3;
  }
  if (kept === 0 || found === 0 || firstKept === 32 || lastKept === 32) return false;
  if (compact && n === 12) {
    out.repairedLength = 12;
    return true;
  }
  // Not a compact code: the same again, noting where each character was for isrcCode's problems.
  out.count = 0;
  return isrcOddSpacesChecked(b, s, e, out);
}

/** isrcOddSpaces for a line whose code is not compact once its spaces are gone: its characters gathered as isrcCore gathers them (positions counted in the line without its non-ASCII spaces), then checked. */
function isrcOddSpacesChecked(b: Uint8Array, s: number, e: number, out: ByteDiagnosis): boolean {
  const code = out.code;
  const positions = out.positions;
  let n = 0;
  let kept = 0;
  let position = 0;
  for (let i = s; i < e; ) {
    const c = b[i]!;
    position++;
    if (c < 128) {
      const cls = CLASSES[c]!;
      kept++;
      i++;
      if ((cls & (C_SPACE | C_HYPHEN)) !== 0) continue;
      code[n] = cls === C_LOWER ? c - 32 : c;
      positions[n++] = kept;
      continue;
    }
    const cp = oddSpaceAt(b, i, e);
    out.push(spec(SPEC.oddSpace, cp >>> 8, cp & 0xff, position));
    i += cp === 0xa0 ? 2 : 3;
  }
  isrcCode(out, n, true);
  return true;
}
