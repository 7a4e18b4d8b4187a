// UPC-A / EAN-13 / GTIN-14 as release codes (rules: the "Codes" section of the domain design).
import { compact } from './chars.js';
import { releasePrefixProblem } from './gs1.js';
import { NO_PROBLEMS, type Problem, type UpcKind, type UpcResult } from './types.js';

const KIND_BY_LENGTH: Record<number, UpcKind> = { 12: 'upc-a', 13: 'ean-13', 14: 'gtin-14' };
const ZEROS = '00';
export const DIGIT = { one: 'digit', many: 'digits' };

/**
 * The check digit for the data digits (the code without its last digit): weights 3,1,3,1…
 * from the rightmost data digit, check = (10 − sum mod 10) mod 10.
 */
export function upcCheckDigit(data: string): number {
  let sum = 0;
  let weight = 3;
  for (let i = data.length - 1; i >= 0; i--) {
    const d = data.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new RangeError(`upcCheckDigit: not an ASCII digit at index ${i}`);
    sum += d * weight;
    weight = 4 - weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** Sum over the data digits of a string already known to be ASCII digits (the hot path). */
function expectedCheck(code: string): number {
  let sum = 0;
  let weight = 3;
  for (let i = code.length - 2; i >= 0; i--) {
    sum += (code.charCodeAt(i) - 48) * weight;
    weight = 4 - weight;
  }
  return (10 - (sum % 10)) % 10;
}

function isAllZeros(code: string): boolean {
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) !== 48) return false;
  return true;
}

/** Validates a compact string of ASCII digits; `checkPosition` is where its last digit was in the input. */
function checkDigits(code: string, checkPosition: number): UpcResult {
  const len = code.length;
  const kind = KIND_BY_LENGTH[len];
  if (kind === undefined) return invalid(lengthProblem(len));
  if (len === 14 && code.charCodeAt(0) !== 48) return invalid(gtin14IndicatorProblem(code.charCodeAt(0) - 48));
  const expected = expectedCheck(code);
  const actual = code.charCodeAt(len - 1) - 48;
  if (expected !== actual) return invalid(badCheckDigitProblem(actual, expected, checkPosition));
  const gtin14 = len === 14 ? code : len === 13 ? `0${code}` : ZEROS + code;
  let problems: readonly Problem[] = NO_PROBLEMS;
  if (isAllZeros(code)) problems = [{ code: 'all_zeros', message: 'all zeros: a placeholder, not an allocated code', severity: 'warning' }];
  else {
    const prefix = releasePrefixProblem(code);
    if (prefix) problems = [prefix];
  }
  return { valid: true, normalized: code, kind, gtin14, problems };
}

export function gtin14IndicatorProblem(first: number): Problem {
  return {
    code: 'gtin14_indicator',
    message: `14 digits starting with ${first}: a GTIN-14 is a release code only with a leading 0 (other first digits mark a packaging level)`,
    severity: 'error',
    position: 1,
    expected: '0',
  };
}

export function badCheckDigitProblem(actual: number, expected: number, position: number): Problem {
  return { code: 'bad_check_digit', message: `check digit is ${actual}, it should be ${expected}`, severity: 'error', position, expected: String(expected) };
}

/** The problem of a UPC of `len` digits when that is not 12, 13 or 14. */
export function lengthProblem(len: number): Problem {
  if (len === 0) return { code: 'empty', message: 'no digits', severity: 'error' };
  if (len === 8) {
    return {
      code: 'ean8_not_release_code',
      message: '8 digits: an EAN-8 is not accepted as a release code (use the 12- or 13-digit code)',
      severity: 'error',
    };
  }
  const hint = len === 11 ? ' (was a leading zero lost, e.g. by a spreadsheet?)' : '';
  return {
    code: 'bad_length',
    message: `${len} digit${len === 1 ? '' : 's'}: a release code has 12 (UPC-A) or 13 (EAN-13) digits, or 14 starting with 0 (GTIN-14)${hint}`,
    severity: 'error',
  };
}

function invalid(...problems: Problem[]): UpcResult {
  return { valid: false, normalized: null, kind: null, gtin14: null, problems };
}

function isPlainDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Checks a UPC/EAN/GTIN as given by a person: spaces and hyphen-minus are removed, anything else
 * that is not an ASCII digit is refused with its position (non-ASCII digits and Unicode dashes too).
 */
export function checkUpc(input: string): UpcResult {
  // Hot path: a bare string of digits, as in bulk files.
  if (isPlainDigits(input)) return checkDigits(input, input.length);

  const { code: digits, lastPosition, problems } = compact(input, (c, ch) => (c >= 48 && c <= 57 ? ch : undefined), DIGIT);
  if (problems.length > 0) return invalid(...problems);
  return checkDigits(digits, lastPosition);
}

/** The code padded to 14 digits, or null when it is not a valid release code. */
export function toGtin14(input: string): string | null {
  return checkUpc(input).gtin14;
}

/** True when both are valid and name the same product (012345678905 = 0012345678905). */
export function sameUpc(a: string, b: string): boolean {
  const x = toGtin14(a);
  return x !== null && x === toGtin14(b);
}
