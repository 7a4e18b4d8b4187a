// Byte-level fast checks for bulk input: they answer only "is this a plain, valid code with
// nothing to say about it?" straight from the input bytes, so that a million good lines need no
// string at all. Anything else (separators, lowercase, non-ASCII, invalid, warnings) returns
// false and must go through checkUpc / checkIsrc, which give the reasons.
import { agencyPrefixes, iso3166Codes } from './countries.js';
import { isrcFullYear } from './isrc.js';
import { hasNonReleasePrefix } from './gs1.js';

/**
 * 12, 13 or 14 when bytes[start..end) is a valid UPC-A, EAN-13 or GTIN-14 written as bare ASCII
 * digits with no warning (not all zeros, no GS1 prefix that cannot be a release); 0 otherwise.
 */
export function plainValidUpcLength(bytes: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len < 12 || len > 14) return 0;
  if (len === 14 && bytes[start] !== 48) return 0;
  let sum = 0;
  let weight = 3;
  let nonZero = 0;
  for (let i = end - 2; i >= start; i--) {
    const d = bytes[i]! - 48;
    if (d < 0 || d > 9) return 0;
    sum += d * weight;
    nonZero |= d;
    weight = 4 - weight;
  }
  const check = bytes[end - 1]! - 48;
  if (check !== (10 - (sum % 10)) % 10) return 0;
  if (nonZero === 0 && check === 0) return 0;
  return hasNonReleasePrefix(bytes, start, end) ? 0 : len;
}

// Byte classes for ISRC positions, as bits so that one AND checks several bytes at once:
// an uppercase letter has LETTER and ALNUM, a digit DIGIT and ALNUM, anything else nothing.
const LETTER = 1;
const DIGIT = 2;
const ALNUM = 4;
const CLASS = new Uint8Array(256);
for (let b = 65; b <= 90; b++) CLASS[b] = LETTER | ALNUM;
for (let b = 48; b <= 57; b++) CLASS[b] = DIGIT | ALNUM;

// 26×26 table of two-letter prefixes: 1 = ISO 3166 or agency prefix, built on first use.
let knownPrefix: Uint8Array | undefined;

function prefixTable(): Uint8Array {
  if (knownPrefix) return knownPrefix;
  const table = new Uint8Array(26 * 26);
  for (const set of [iso3166Codes(), agencyPrefixes()]) {
    for (const p of set) table[(p.charCodeAt(0) - 65) * 26 + (p.charCodeAt(1) - 65)] = 1;
  }
  knownPrefix = table;
  return table;
}

// Which two-digit years are not in the future, for the last current year asked about.
let yearsFor = -1;
let yearsOk = new Uint8Array(100);

function yearTable(currentYear: number): Uint8Array {
  if (currentYear !== yearsFor) {
    const table = new Uint8Array(100);
    for (let yy = 0; yy < 100; yy++) table[yy] = isrcFullYear(yy, currentYear) <= currentYear ? 1 : 0;
    yearsOk = table;
    yearsFor = currentYear;
  }
  return yearsOk;
}

/**
 * True when the 12 bytes at bytes[start..start+12) are a valid ISRC already in compact uppercase
 * form, with a known prefix and a year not after currentYear (no warning). The caller makes sure
 * the 12 bytes exist (reading past the end gives undefined, which is refused anyway).
 */
export function plainValidIsrcAt(bytes: Uint8Array, start: number, currentYear: number): boolean {
  const c0 = bytes[start]!;
  const c1 = bytes[start + 1]!;
  const y0 = bytes[start + 5]!;
  const y1 = bytes[start + 6]!;
  // CC: letters; XXX: letters or digits; YY NNNNN: digits. Unrolled, one table load per byte.
  const shape =
    CLASS[c0]! & CLASS[c1]! & LETTER &&
    CLASS[bytes[start + 2]!]! & CLASS[bytes[start + 3]!]! & CLASS[bytes[start + 4]!]! & ALNUM &&
    CLASS[y0]! &
      CLASS[y1]! &
      CLASS[bytes[start + 7]!]! &
      CLASS[bytes[start + 8]!]! &
      CLASS[bytes[start + 9]!]! &
      CLASS[bytes[start + 10]!]! &
      CLASS[bytes[start + 11]!]! &
      DIGIT;
  if (!shape) return false;
  if (prefixTable()[(c0 - 65) * 26 + (c1 - 65)] !== 1) return false;
  return yearTable(currentYear)[(y0 - 48) * 10 + (y1 - 48)] === 1;
}

/** plainValidIsrcAt for a line bytes[start..end): false unless it is exactly 12 bytes. */
export function plainValidIsrc(bytes: Uint8Array, start: number, end: number, currentYear: number): boolean {
  return end - start === 12 && plainValidIsrcAt(bytes, start, currentYear);
}

// Duplicate keys: a valid code as one number (below 2^53), so that an index of codes seen needs
// no string per line. A UPC is its digits' value (leading zeros do not count: 012… = 0012…, as
// GTIN-14); an ISRC packs CC (26²) × XXX (36³) × YYNNNNN (10⁷), about 3.2e14 at most.

/** The key of a valid UPC/EAN/GTIN written as bare digits at bytes[start..end). */
export function upcKeyAt(bytes: Uint8Array, start: number, end: number): number {
  let key = 0;
  for (let i = start; i < end; i++) key = key * 10 + (bytes[i]! - 48);
  return key;
}

/** The key of a valid compact ISRC at bytes[start..start+12). */
export function isrcKeyAt(bytes: Uint8Array, start: number): number {
  let reg = 0;
  for (let i = start + 2; i < start + 5; i++) {
    const c = bytes[i]!;
    reg = reg * 36 + (c <= 57 ? c - 48 : c - 55);
  }
  let rest = 0;
  for (let i = start + 5; i < start + 12; i++) rest = rest * 10 + (bytes[i]! - 48);
  return (((bytes[start]! - 65) * 26 + (bytes[start + 1]! - 65)) * 46656 + reg) * 1e7 + rest;
}

/** upcKeyAt / isrcKeyAt for a normalized code (the general path). */
export function codeKey(kind: 'upc' | 'isrc', normalized: string): number {
  const bytes = new Uint8Array(normalized.length);
  for (let i = 0; i < normalized.length; i++) bytes[i] = normalized.charCodeAt(i);
  return kind === 'upc' ? upcKeyAt(bytes, 0, bytes.length) : isrcKeyAt(bytes, 0);
}
