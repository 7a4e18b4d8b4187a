// GS1 prefixes that a valid EAN/UPC can carry but a music release cannot: the code is well
// formed, so this is a warning with the reason, never an error.
import type { Problem } from './types.js';

/**
 * The warning for a valid code's GS1 prefix, or undefined. `code` is 12, 13 or 14 digits; the
 * prefix is read on its GTIN-13 form (a UPC-A is a GTIN-13 with a leading 0).
 */
export function releasePrefixProblem(code: string): Problem | undefined {
  const off = code.length - 13;
  const d1 = off < 0 ? 48 : code.charCodeAt(off);
  const d2 = code.charCodeAt(off + 1);
  const d3 = code.charCodeAt(off + 2);
  const why = prefixReason(d1 - 48, d2 - 48, d3 - 48);
  return why === undefined ? undefined : { code: 'not_release_prefix', message: why, severity: 'warning' };
}

/** The reason for the first three digits of a GTIN-13, or undefined for an ordinary product prefix. */
export function prefixReason(d1: number, d2: number, d3: number): string | undefined {
  if (d1 === 0 && (d2 === 2 || d2 === 4)) return `GS1 prefix 0${d2}: restricted circulation (in-store or variable-measure numbers), not a release code`;
  if (d1 === 2) return `GS1 prefix 2${d2}: restricted circulation (in-store or variable-measure numbers), not a release code`;
  if (d1 === 9 && d2 === 7 && d3 === 7) return 'GS1 prefix 977: an ISSN (a periodical), not a release code';
  if (d1 === 9 && d2 === 7 && (d3 === 8 || d3 === 9)) return `GS1 prefix 97${d3}: an ISBN (a book${d3 === 9 ? ' or printed music' : ''}), not a release code`;
  if (d1 === 9 && (d2 === 8 || d2 === 9)) return `GS1 prefix 9${d2}: a coupon number, not a release code`;
  return undefined;
}

/** Byte form for the bulk fast path: true when bytes[start..end) (12–14 digits) has such a prefix. */
export function hasNonReleasePrefix(bytes: Uint8Array, start: number, end: number): boolean {
  const off = end - 13;
  const d1 = off < start ? 0 : bytes[off]! - 48;
  const d2 = bytes[off + 1]! - 48;
  if (d1 === 0) return d2 === 2 || d2 === 4;
  if (d1 === 2) return true;
  if (d1 !== 9) return false;
  if (d2 === 8 || d2 === 9) return true;
  const d3 = bytes[off + 2]! - 48;
  return d2 === 7 && d3 >= 7;
}
