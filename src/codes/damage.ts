// What a spreadsheet does to a code on its way to a CSV file, named, with the repaired code when
// the repair is certain. Used only for codes that are invalid as given, so it costs nothing on
// the valid path; the engine's verdict (checkUpc / checkIsrc) stays what it is.
import { NON_ASCII_SPACE, nonAsciiProblem } from './chars.js';
import { checkIsrc } from './isrc.js';
import { checkUpc } from './upc.js';
import type { IsrcOptions, Problem } from './types.js';

export interface Damage {
  /** The damage found, in the order it was undone, then what is still wrong after undoing it. */
  problems: Problem[];
  /** The code once the damage is undone, when that code is valid; null when digits are lost or it is still invalid. */
  repaired: string | null;
  /**
   * The code once the damage is undone, valid or not: `repaired` when that is valid, else the
   * text left (to show beside its own verdict, `repaired !== null`); null when the digits are
   * lost (scientific notation).
   */
  fixed: string | null;
}

const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?[eE][+]?\d+$/;
const QUOTED = /^(["'\u2018\u2019\u201c\u201d])(.*)(["'\u2018\u2019\u201c\u201d])$/s;
const DECIMAL_SUFFIX = /^(\d[\d, ]*)[.,]0+$/;
const THOUSANDS_COMMA = /^\d{1,3}(?:,\d{3})+$/;
const THOUSANDS_DOT = /^\d{1,3}(?:\.\d{3}){2,}$/;
// Excel's text formula, which its CSV export writes for a cell that must stay text: ="…"; and
// the same with the CSV quoting still on, when the file is read as a plain list: "=""…""".
const TEXT_FORMULA = /^=\s*"(.*)"$/s;
const TEXT_FORMULA_CSV = /^"=""(.*)"""$/s;

const damage = (code: Problem['code'], message: string): Problem => ({ code, message, severity: 'error' });

/** The problems of spreadsheet damage, one constructor each (the bulk path serialises each once). */
export const scientificProblem = (s: string) =>
  damage(
    'scientific_notation',
    `${s} is scientific notation: the spreadsheet kept only the first digits and the rest are lost (format the column as text and export again)`,
  );
export const quotedProblem = (open: string, close: string) => damage('quoted', `surrounded by quotes (${open}…${close})`);
/** `csvQuoted`: written "=""…""" (the CSV quoting of ="…" not undone). */
export const textFormulaProblem = (csvQuoted: boolean) =>
  damage(
    'text_formula',
    csvQuoted
      ? `Excel's text formula ="…", CSV-quoted as "=""…""", around the code (the code inside is what is checked)`
      : `Excel's text formula ="…" around the code (the code inside is what is checked)`,
  );
export const apostropheProblem = () => damage('quoted', "starts with an apostrophe (a spreadsheet's text marker)");
export const decimalSuffixProblem = (suffix: string) => damage('decimal_suffix', `ends in "${suffix}": the code was stored as a number`);
export const lostLeadingZeroProblem = (digits: number) => {
  const lost = 12 - digits;
  return damage(
    'lost_leading_zero',
    `${digits} digits: ${lost === 1 ? 'a leading zero was' : `${lost} leading zeros were`} lost (the code was stored as a number)`,
  );
};

/**
 * The spreadsheet damage in a code that is invalid as given, or undefined when none is
 * recognised. Scientific notation is named without a guess (the digits are gone).
 */
export function diagnoseDamage(input: string, kind: 'upc' | 'isrc', options: IsrcOptions): Damage | undefined {
  // The common invalid code (a wrong check digit, a wrong length) is only digits, spaces and
  // hyphens: nothing to undo unless leading zeros went missing.
  if (kind === 'upc' && /^[\d -]*$/.test(input)) {
    const n = input.replace(/[ -]/g, '').length;
    if (n !== 10 && n !== 11) return undefined;
  }
  const problems: Problem[] = [];
  let s = input;
  if (NON_ASCII_SPACE.test(s)) {
    // Each named at its place in the input (as checkUpc / checkIsrc name it), then dropped as an
    // ASCII space would be.
    let position = 0;
    let kept = '';
    for (const ch of s) {
      position++;
      if (ch !== ' ' && NON_ASCII_SPACE.test(ch)) problems.push(nonAsciiProblem(ch, position));
      else kept += ch;
    }
    s = kept;
  }
  s = s.trim();
  if (kind === 'upc' && SCIENTIFIC.test(s)) {
    return { problems: [...problems, scientificProblem(s)], repaired: null, fixed: null };
  }
  const csvFormula = TEXT_FORMULA_CSV.exec(s);
  const formula = csvFormula ?? TEXT_FORMULA.exec(s);
  const quoted = formula ? null : QUOTED.exec(s);
  if (formula) {
    s = formula[1]!.trim();
    problems.push(textFormulaProblem(csvFormula !== null));
  } else if (quoted) {
    s = quoted[2]!.trim();
    problems.push(quotedProblem(quoted[1]!, quoted[3]!));
  } else if (s.startsWith("'") || s.startsWith('\u2019')) {
    // A leading apostrophe is how a spreadsheet is told "this cell is text".
    s = s.slice(1).trim();
    problems.push(apostropheProblem());
  }
  if (kind === 'upc') {
    const decimal = DECIMAL_SUFFIX.exec(s);
    if (decimal) {
      const suffix = s.slice(decimal[1]!.length);
      s = decimal[1]!;
      problems.push(decimalSuffixProblem(suffix));
    }
    if (THOUSANDS_COMMA.test(s) || THOUSANDS_DOT.test(s)) {
      s = s.replace(/[.,]/g, '');
      problems.push(damage('thousands_separator', 'has thousands separators: the code was formatted as a number'));
    }
    const digits = s.replace(/[ -]/g, '');
    if (/^\d{10,11}$/.test(digits)) {
      const padded = digits.padStart(12, '0');
      if (checkUpc(padded).valid) {
        s = padded;
        problems.push(lostLeadingZeroProblem(digits.length));
      }
    }
  }
  if (problems.length === 0) return undefined;
  const after = kind === 'upc' ? checkUpc(s) : checkIsrc(s, options);
  return after.valid
    ? { problems, repaired: after.normalized, fixed: after.normalized }
    : { problems: [...problems, ...after.problems], repaired: null, fixed: s };
}
