// Describes a character that is not allowed in a code. Only reached on the error path, so the
// Unicode property regexes here cost nothing when every code is fine.
import type { Problem, ProblemCode } from './types.js';

// Letters that render like ASCII ones but are not (NFKC does not fold these).
const LOOKALIKES: Record<string, string> = {
  ı: 'i',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
};

export function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What an ASCII character looks like to a person in a message. */
export function showChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f) return `control character ${hex(cp)}`;
  if (cp === 0x27) return `"'"`;
  return `'${ch}'`;
}

/** A space that is not ASCII's (no-break, thin, figure, zero-width, BOM…): a cell copied from a web page or a PDF keeps them. */
export const NON_ASCII_SPACE = /[\p{Z}\u0085\u180e\u200b\ufeff]/u;

/** A problem for one non-ASCII character at a 1-based position. */
export function nonAsciiProblem(ch: string, position: number): Problem {
  const cp = ch.codePointAt(0) ?? 0;
  const folded = ch.normalize('NFKC');
  const asciiTwin = /^[\x21-\x7e]$/.test(folded) ? folded : LOOKALIKES[ch];
  const looks = asciiTwin === undefined ? '' : `, which looks like '${asciiTwin}'`;
  let code: ProblemCode;
  let what: string;
  let advice = '';
  if (/\p{N}/u.test(ch)) {
    code = 'non_ascii_digit';
    what = 'non-ASCII digit';
  } else if (/\p{Pd}/u.test(ch) || cp === 0x2212) {
    code = 'unicode_dash';
    what = 'Unicode dash';
    advice = "; only '-' (U+002D) is allowed";
  } else if (NON_ASCII_SPACE.test(ch)) {
    code = 'non_ascii_space';
    what = 'non-ASCII space';
    advice = "; only ' ' (U+0020) is allowed";
  } else if (/\p{L}/u.test(ch)) {
    code = 'lookalike_letter';
    what = 'non-ASCII letter';
  } else {
    code = 'non_ascii_character';
    what = cp === 0xfffd ? 'replacement character (the input was not valid UTF-8)' : 'non-ASCII character';
  }
  const shown = /\p{C}|\p{Z}/u.test(ch) ? '' : `'${ch}' `;
  return {
    code,
    message: `${what} ${shown}(${hex(cp)}) at position ${position}${looks}${advice}`,
    severity: 'error',
    position,
  };
}

/** Bad characters are reported one by one, up to this many, then the rest are summed up. */
export const MAX_CHAR_PROBLEMS = 5;

export interface Allowed {
  one: string;
  many: string;
}

/** An ASCII character that is not allowed, at a 1-based position. */
export function badCharacterProblem(ch: string, position: number, allowed: Allowed): Problem {
  return {
    code: 'bad_character',
    message: `${showChar(ch)} at position ${position} is not a ${allowed.one}`,
    severity: 'error',
    position,
    expected: allowed.one,
  };
}

/** The bad characters past MAX_CHAR_PROBLEMS, summed up. */
export function moreBadCharactersProblem(more: number, allowed: Allowed): Problem {
  return { code: 'bad_character', message: `and ${more} more characters that are not ${allowed.many}`, severity: 'error' };
}

export interface Compacted {
  /** The kept characters, in order. */
  code: string;
  /** 1-based position in the input of the last kept character (0 when none). */
  lastPosition: number;
  problems: Problem[];
}

/**
 * A code as a person typed it, compacted: spaces and hyphen-minus dropped, each other character
 * kept as `keep` maps it (undefined: refused). Every refused character is a problem naming its
 * position, up to MAX_CHAR_PROBLEMS, then a count of the rest.
 */
export function compact(input: string, keep: (cp: number, ch: string) => string | undefined, allowed: Allowed): Compacted {
  let code = '';
  let lastPosition = 0;
  const problems: Problem[] = [];
  let bad = 0;
  let position = 0;
  for (const ch of input) {
    position++;
    const c = ch.codePointAt(0)!;
    if (c === 32 || c === 45) continue;
    const kept = keep(c, ch);
    if (kept !== undefined) {
      code += kept;
      lastPosition = position;
      continue;
    }
    bad++;
    if (bad > MAX_CHAR_PROBLEMS) continue;
    problems.push(c < 128 ? badCharacterProblem(ch, position, allowed) : nonAsciiProblem(ch, position));
  }
  if (bad > MAX_CHAR_PROBLEMS) problems.push(moreBadCharactersProblem(bad - MAX_CHAR_PROBLEMS, allowed));
  return { code, lastPosition, problems };
}
