// Byte-level fast checks for bulk input: they answer only "is this a plain, valid code with
// nothing to say about it?" straight from the input bytes, so that a million good lines need no
// string at all. Anything else (separators, lowercase, non-ASCII, invalid, warnings) returns
// false and must go through checkUpc / checkIsrc, which give the reasons.
import { agencyPrefixes, iso3166Codes } from './countries.js';
import { isrcFullYear } from './isrc.js';

/**
 * 12, 13 or 14 when bytes[start..end) is a valid UPC-A, EAN-13 or GTIN-14 written as bare ASCII
 * digits with no warning (not all zeros); 0 otherwise.
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
  return nonZero === 0 && check === 0 ? 0 : len;
}

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

/**
 * True when bytes[start..end) is a valid ISRC already in compact uppercase form, with a known
 * prefix and a year not after currentYear (no warning); false otherwise.
 */
export function plainValidIsrc(bytes: Uint8Array, start: number, end: number, currentYear: number): boolean {
  if (end - start !== 12) return false;
  const c0 = bytes[start]! - 65;
  const c1 = bytes[start + 1]! - 65;
  if (c0 < 0 || c0 > 25 || c1 < 0 || c1 > 25) return false;
  for (let i = start + 2; i < start + 5; i++) {
    const b = bytes[i]!;
    if (!((b >= 65 && b <= 90) || (b >= 48 && b <= 57))) return false;
  }
  for (let i = start + 5; i < end; i++) {
    const b = bytes[i]!;
    if (b < 48 || b > 57) return false;
  }
  if (prefixTable()[c0 * 26 + c1] !== 1) return false;
  return yearTable(currentYear)[(bytes[start + 5]! - 48) * 10 + (bytes[start + 6]! - 48)] === 1;
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
