// One cell of a spreadsheet read as a release file's value: codes through the code engine and
// validate's spreadsheet damage (same names, same repairs), dates in the template's order or as
// a workbook's serial numbers, explicit, price tiers, languages, copyright lines, credits. Each
// returns the value, or a problem in words (with the damage's code for codes). Pure.
import ISO6391 from 'iso-639-1';
import { checkIsrc, checkUpc, diagnoseDamage } from '../../codes/index.js';
import type { CellValue } from './read-rows.js';
import type { DateOrder } from './templates.js';

export interface CellProblem {
  /** validate's damage or problem code for codes ('lost_leading_zero', 'bad_check_digit'…); a plain word otherwise. */
  code: string;
  message: string;
}

export type Read<T> = { ok: true; value: T; repaired?: CellProblem } | { ok: false; problem: CellProblem };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = <T>(code: string, message: string): Read<T> => ({ ok: false, problem: { code, message } });

/** A cell as text: Excel's text formula `="0036…"` read as the text inside; a workbook's number as all its digits. */
export function cellText(v: CellValue): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v.toFixed(0) : String(v);
  const s = v.trim();
  const formula = /^=\s*"(.*)"$/s.exec(s);
  return formula ? formula[1]!.trim() : s;
}

/** A UPC/EAN: valid as written, or repaired when validate's damage names a certain repair; refused otherwise. */
export function readUpc(v: CellValue): Read<string> {
  const written = cellText(v);
  const res = checkUpc(written);
  if (res.valid) return ok(res.normalized!);
  // A workbook's number of few significant digits is what the sheet shows as 3.6E+11 (a code
  // pasted from a CSV that had lost its digits): judged as seen, so validate's damage names it.
  const s = typeof v === 'number' && Number.isInteger(v) && v >= 1e11 && written.replace(/0+$/, '').length <= 6 ? v.toExponential().toUpperCase() : written;
  const damage = diagnoseDamage(s, 'upc', { currentYear: new Date().getUTCFullYear() });
  if (damage?.repaired) return { ok: true, value: damage.repaired, repaired: describeDamage(s, damage.problems, damage.repaired) };
  const problems = damage?.problems ?? res.problems;
  const first = problems[0]!;
  return bad(first.code, `UPC "${s}": ${problems.map((p) => p.message).join('; ')}`);
}

/** An ISRC: valid as written (stored compact), repaired when the damage is certain; refused otherwise. */
export function readIsrc(v: CellValue, currentYear: number): Read<string> {
  const s = cellText(v);
  const res = checkIsrc(s, { currentYear });
  if (res.valid) return ok(res.normalized!);
  const damage = diagnoseDamage(s, 'isrc', { currentYear });
  if (damage?.repaired) return { ok: true, value: damage.repaired, repaired: describeDamage(s, damage.problems, damage.repaired) };
  const problems = (damage?.problems ?? res.problems).filter((p) => p.severity === 'error');
  const first = problems[0] ?? res.problems[0]!;
  return bad(first.code, `ISRC "${s}": ${(problems.length > 0 ? problems : res.problems).map((p) => p.message).join('; ')}`);
}

function describeDamage(input: string, problems: readonly { code: string; message: string }[], repaired: string): CellProblem {
  return { code: problems[0]!.code, message: `"${input}" ${problems.map((p) => p.message).join('; ')}; read as ${repaired}` };
}

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isoOf(y: number, m: number, d: number): string | undefined {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > MONTH_DAYS[m - 1]!) return undefined;
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A spreadsheet's serial day number as a date: days since 1899-12-30 (Excel's 1900 system, its leap-year bug included), or since 1904-01-01. */
export function serialDate(serial: number, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 1) return undefined;
  const days = Math.floor(serial) + (date1904 ? 1462 : 0);
  const t = Date.UTC(1899, 11, 30) + days * 86_400_000;
  const d = new Date(t);
  return isoOf(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?$/;
const DMY_OR_MDY = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T].*)?$/;
const SERIAL_TEXT = /^\d{4,6}(?:\.\d+)?$/;

/** A date cell: ISO, the template's day/month order, or a serial number (a workbook's, or one a CSV export let through). */
export function readDate(v: CellValue, order: DateOrder, date1904: boolean): Read<string> {
  if (typeof v === 'number') {
    const iso = serialDate(v, date1904);
    return iso ? ok(iso) : bad('bad_date', `${v} is not a date (a spreadsheet date is a day number from 1900)`);
  }
  const s = cellText(v);
  const iso = ISO.exec(s);
  if (iso) {
    const out = isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return out ? ok(out) : bad('bad_date', `"${s}" is not a date`);
  }
  const parts = DMY_OR_MDY.exec(s);
  if (parts) {
    const a = Number(parts[1]);
    const b = Number(parts[2]);
    const y = Number(parts[3]);
    let day: number;
    let month: number;
    if (order === 'mdy') [month, day] = [a, b];
    else if (order === 'dmy') [day, month] = [a, b];
    else if (a > 12 && b <= 12) [day, month] = [a, b];
    else if (b > 12 && a <= 12) [month, day] = [a, b];
    else if (a === b) [day, month] = [a, b];
    else
      return bad(
        'ambiguous_date',
        `"${s}" could be ${isoOf(y, b, a) ?? '?'} or ${isoOf(y, a, b) ?? '?'}: write it as YYYY-MM-DD, or name the template (--template) whose order it is`,
      );
    const out = isoOf(y, month, day);
    const form = order === 'mdy' ? 'MM/DD/YYYY' : order === 'dmy' ? 'DD/MM/YYYY' : 'a date';
    return out ? ok(out) : bad('bad_date', `"${s}" is not ${form === 'a date' ? 'a date' : `a date in this template's order (${form})`}`);
  }
  if (SERIAL_TEXT.test(s)) {
    // A date column exported from a sheet that held it as a number: the day number, as in the workbook.
    const out = serialDate(Number(s), date1904);
    if (out) return { ok: true, value: out, repaired: { code: 'serial_date', message: `"${s}" is a spreadsheet day number; read as ${out}` } };
  }
  return bad('bad_date', `"${s}" is not a date (expected YYYY-MM-DD${order === 'mdy' ? ' or MM/DD/YYYY' : order === 'dmy' ? ' or DD/MM/YYYY' : ''})`);
}

/** A year: 4 digits (a workbook's number, or a date's year). */
export function readYear(v: CellValue): Read<number> {
  const s = cellText(v);
  const m = /^(\d{4})(?:\.0+)?$/.exec(s);
  const y = m ? Number(m[1]) : Number.NaN;
  return y >= 1900 && y <= 2100 ? ok(y) : bad('bad_year', `"${s}" is not a year (4 digits, 1900 to 2100)`);
}

/** "2026 Northern Lights", "℗ 2026 Northern Lights", "Northern Lights 2026", "(P) Northern Lights": the year (when written) and the owner. */
export function readCopyrightLine(v: CellValue): { year: number | undefined; owner: string } {
  let s = cellText(v)
    .replace(/^\s*(℗|©|\(p\)|\(c\)|p\b|c\b)\s*/i, '')
    .trim();
  let year: number | undefined;
  const lead = /^(\d{4})\b[\s,.-]*(.*)$/s.exec(s);
  const tail = /^(.*?)[\s,.-]*\b(\d{4})$/s.exec(s);
  if (lead && Number(lead[1]) >= 1900 && Number(lead[1]) <= 2100) {
    year = Number(lead[1]);
    s = lead[2]!;
  } else if (tail && Number(tail[2]) >= 1900 && Number(tail[2]) <= 2100) {
    year = Number(tail[2]);
    s = tail[1]!;
  }
  return { year, owner: s.trim() };
}

/** Yes/No, Explicit/Clean, True/False, 1/0 (blank is not explicit). */
export function readExplicit(v: CellValue): Read<'explicit' | 'not_explicit' | 'clean'> {
  const k = cellText(v)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  if (['', 'no', 'n', 'false', '0', 'notexplicit', 'none', 'nonexplicit'].includes(k)) return ok('not_explicit');
  if (['yes', 'y', 'true', '1', 'explicit', 'explicitlyrics', 'parentaladvisory', 'pa'].includes(k)) return ok('explicit');
  if (['clean', 'cleaned', 'edited', 'cleanversion', 'radioedit'].includes(k)) return ok('clean');
  return bad('bad_value', `"${cellText(v)}" is not one of yes, no, clean`);
}

/** budget, mid, front, premium; as distributors write them ("Front Line", "Mid-price", "Back catalogue"). */
export function readPriceTier(v: CellValue): Read<'budget' | 'mid' | 'front' | 'premium'> {
  const k = cellText(v)
    .toLowerCase()
    .replace(/line|price|tier|catalog(ue)?|[^a-z]/g, '');
  if (k === 'budget' || k === 'back' || k === 'low') return ok('budget');
  if (k === 'mid' || k === 'middle' || k === 'medium') return ok('mid');
  if (k === 'front' || k === 'full' || k === 'standard') return ok('front');
  if (k === 'premium' || k === 'high' || k === 'deluxe') return ok('premium');
  return bad('bad_value', `"${cellText(v)}" is not a price tier (budget, mid, front, premium)`);
}

/** An ISO 639-1 code, or a language's English or native name ("English", "Français"). */
export function readLanguage(v: CellValue, o: { instrumental?: boolean } = {}): Read<string> {
  const s = cellText(v);
  const lower = s.toLowerCase();
  if (o.instrumental && ['instrumental', 'none', 'no lyrics', 'zxx', 'n/a'].includes(lower)) return ok('instrumental');
  const code = /^[a-z]{2}$/i.test(s) ? lower : /^[a-z]{2}[-_][a-z]{2,4}$/i.test(s) ? lower.slice(0, 2) : ISO6391.getCode(titleCase(s)) || ISO6391.getCode(s);
  if (code && ISO6391.validate(code)) return ok(code);
  return bad('bad_value', `"${s}" is not a language (an ISO 639-1 code like en, or its name)${o.instrumental ? ', or instrumental' : ''}`);
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase());

/** single, ep, album, compilation; as templates write them ("Single", "EP", "LP", "Album"). */
export function readReleaseType(v: CellValue): Read<'single' | 'ep' | 'album' | 'compilation'> {
  const k = cellText(v)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (k === 'single') return ok('single');
  if (k === 'ep' || k === 'maxisingle' || k === 'extendedplay') return ok('ep');
  if (k === 'album' || k === 'lp' || k === 'fulllength') return ok('album');
  if (k === 'compilation' || k === 'various' || k === 'variousartists') return ok('compilation');
  return bad('bad_value', `"${cellText(v)}" is not a release type (single, EP, album, compilation)`);
}

/** A whole positive number (a track or disc number, seconds). */
export function readCount(v: CellValue, max: number): Read<number> {
  const s = cellText(v);
  const m = /^(\d+)(?:\.0+)?$/.exec(s);
  const n = m ? Number(m[1]) : Number.NaN;
  return n >= 1 && n <= max ? ok(n) : bad('bad_value', `"${s}" is not a whole number from 1 to ${max}`);
}

/** Names in one cell: "A; B", "A | B" (a comma or & stays part of a name: "Earth, Wind & Fire"). */
export function splitNames(s: string): string[] {
  return s
    .split(/[;|\n]/)
    .map((n) => n.trim())
    .filter((n) => n !== '');
}
