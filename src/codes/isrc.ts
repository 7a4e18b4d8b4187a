// ISRC (ISO 3901), rules in the "Codes" section of the domain design.
import { compact } from './chars.js';
import { agencyPrefixes, iso3166Codes } from './countries.js';
import { NO_PROBLEMS, type IsrcOptions, type IsrcPrefixKind, type IsrcResult, type Problem } from './types.js';

/** A two-digit year up to this many years ahead reads as this century; further ahead, the last one. */
export const YEAR_WINDOW_AHEAD = 10;

// biome-ignore lint/suspicious/noConstEnum: used in this file only, inlined into the hot loop
const enum Cls {
  Letter = 1,
  Digit = 2,
  Alnum = 3,
}

// What each of the 12 positions accepts, and which part it belongs to (for messages).
const SHAPE: readonly Cls[] = [
  Cls.Letter,
  Cls.Letter,
  Cls.Alnum,
  Cls.Alnum,
  Cls.Alnum,
  Cls.Digit,
  Cls.Digit,
  Cls.Digit,
  Cls.Digit,
  Cls.Digit,
  Cls.Digit,
  Cls.Digit,
];
const PART_OF: readonly string[] = [
  'country or agency prefix',
  'country or agency prefix',
  'registrant',
  'registrant',
  'registrant',
  'year',
  'year',
  'designation',
  'designation',
  'designation',
  'designation',
  'designation',
];
const CLS_NAME: Record<Cls, string> = { [Cls.Letter]: 'letter', [Cls.Digit]: 'digit', [Cls.Alnum]: 'letter or digit' };

/** Reads a two-digit year of assignment as a full year, relative to the current year. */
export function isrcFullYear(yy: number, currentYear: number): number {
  let year = Math.floor(currentYear / 100) * 100 + yy;
  if (year > currentYear + YEAR_WINDOW_AHEAD) year -= 100;
  else if (year <= currentYear + YEAR_WINDOW_AHEAD - 100) year += 100;
  return year;
}

/** 'country' for an ISO 3166-1 code, 'agency' for an ISRC agency prefix, else 'unknown'. */
export function isrcPrefixKind(prefix: string): IsrcPrefixKind {
  if (iso3166Codes().has(prefix)) return 'country';
  if (agencyPrefixes().has(prefix)) return 'agency';
  return 'unknown';
}

/** CC-XXX-YY-NNNNN from a valid compact ISRC. */
export function isrcDisplay(compact: string): string {
  return `${compact.slice(0, 2)}-${compact.slice(2, 5)}-${compact.slice(5, 7)}-${compact.slice(7)}`;
}

function classOf(c: number): number {
  if (c >= 65 && c <= 90) return Cls.Letter;
  if (c >= 48 && c <= 57) return Cls.Digit;
  return 0;
}

/** True when the input is already 12 uppercase ASCII letters and digits (nothing to normalize). */
function isCompact(s: string): boolean {
  if (s.length !== 12) return false;
  for (let i = 0; i < 12; i++) if (classOf(s.charCodeAt(i)) === 0) return false;
  return true;
}

/** The 1-based position in the input of the character that became compact[index]. */
function inputPosition(input: string, index: number): number {
  let kept = -1;
  let position = 0;
  for (const ch of input) {
    position++;
    if (ch !== ' ' && ch !== '-' && ++kept === index) return position;
  }
  return position;
}

/** An ISRC of `len` characters (once spaces and hyphens are gone) when that is not 12. */
export function isrcLengthProblem(len: number): Problem {
  return len === 0
    ? { code: 'empty', message: 'no letters or digits', severity: 'error' }
    : {
        code: 'bad_length',
        message: `${len} character${len === 1 ? '' : 's'} after removing spaces and hyphens: an ISRC has 12 (2 letters, 3 letters or digits, 2 digits, 5 digits)`,
        severity: 'error',
      };
}

/** Character `found` at index `index` (0-11) of the compact ISRC does not fit there; `position` is where it was in the input. */
export function badFormatProblem(index: number, found: string, position: number): Problem {
  const want = SHAPE[index]!;
  return {
    code: 'bad_format',
    message: `position ${position} must be a ${CLS_NAME[want]} (${PART_OF[index]}), found '${found}'`,
    severity: 'error',
    position,
    expected: CLS_NAME[want],
  };
}

function invalid(problems: Problem[]): IsrcResult {
  return { valid: false, normalized: null, kind: null, display: null, parts: null, prefixKind: null, problems };
}

/**
 * Checks an ISRC as given by a person: a leading "ISRC", spaces and hyphen-minus are removed and
 * ASCII letters uppercased; anything else (non-ASCII letters, digits or dashes included) is refused.
 */
export const LETTER_OR_DIGIT = { one: 'letter or digit', many: 'letters or digits' };

/** ASCII letters and digits, lowercase letters uppercased; anything else refused. */
function keepIsrcChar(c: number, ch: string): string | undefined {
  if (classOf(c) !== 0) return ch;
  if (c >= 97 && c <= 122) return String.fromCharCode(c - 32);
  return undefined;
}

export function checkIsrc(input: string, options: IsrcOptions): IsrcResult {
  let code: string;
  let offset = 0;
  if (isCompact(input)) {
    code = input;
  } else {
    const compacted = compact(input, keepIsrcChar, LETTER_OR_DIGIT);
    if (compacted.problems.length > 0) return invalid(compacted.problems);
    code = compacted.code;
    // "ISRC" is a presentation prefix, but IS-RC… is also a valid start (Iceland): drop it only when too long.
    if (code.length > 12 && code.startsWith('ISRC')) {
      code = code.slice(4);
      offset = 4;
    }
    if (code.length !== 12) {
      const len = code.length;
      return invalid([isrcLengthProblem(len)]);
    }
  }

  let problems: Problem[] | undefined;
  for (let i = 0; i < 12; i++) {
    const want = SHAPE[i]!;
    if ((classOf(code.charCodeAt(i)) & want) === 0) {
      const position = code === input ? i + 1 : inputPosition(input, i + offset);
      (problems ??= []).push(badFormatProblem(i, code[i]!, position));
    }
  }
  if (problems) return invalid(problems);

  const country = code.slice(0, 2);
  const prefixKind = isrcPrefixKind(country);
  const year = code.slice(5, 7);
  const fullYear = isrcFullYear((code.charCodeAt(5) - 48) * 10 + code.charCodeAt(6) - 48, options.currentYear);
  let warnings: Problem[] | undefined;
  if (prefixKind === 'unknown') {
    (warnings ??= []).push({
      code: 'unknown_prefix',
      message: `prefix ${country} is neither an ISO 3166 country code nor a known ISRC agency prefix`,
      severity: 'warning',
      position: code === input ? 1 : inputPosition(input, offset),
    });
  }
  if (fullYear > options.currentYear) {
    (warnings ??= []).push({
      code: 'future_year',
      message: `year ${year} reads as ${fullYear}, later than ${options.currentYear}`,
      severity: 'warning',
      position: code === input ? 6 : inputPosition(input, 5 + offset),
    });
  }
  return {
    valid: true,
    normalized: code,
    kind: 'isrc',
    display: isrcDisplay(code),
    parts: { country, registrant: code.slice(2, 5), year, fullYear, designation: code.slice(7) },
    prefixKind,
    problems: warnings ?? NO_PROBLEMS,
  };
}
