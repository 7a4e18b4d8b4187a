// Output lines for `validate`, built by hand for the fixed shapes: this runs once per code, a
// million times for a big file, and string concatenation beats JSON.stringify of an object.
import type { Problem } from '../../../codes/index.js';
import type { ValidationResultData } from '../../../contract/resources.js';

/** What one code's check gives, whichever kind of code (UpcResult and IsrcResult both fit). */
export interface Verdict {
  valid: boolean;
  normalized: string | null;
  kind: string | null;
  /** The form to show a person (ISRC: CC-XXX-YY-NNNNN); UPCs have none. */
  display?: string | null;
  problems: readonly Problem[];
  /** The code with its spreadsheet damage undone, when that is certain (diagnoseDamage). */
  repaired?: string | null;
  /** The code with its spreadsheet damage undone, valid or not (diagnoseDamage): its verdict is `repaired != null`. */
  fixed?: string | null;
}

/** --fix: the code with its damage undone and that code's verdict; null, null when nothing was undone (or the digits are lost). */
export function fixedOf(v: Verdict): { fixed: string | null; valid: boolean | null } {
  return v.fixed == null ? { fixed: null, valid: null } : { fixed: v.fixed, valid: v.repaired != null };
}

/** Where a code was read: its 1-based line in a list, or in a CSV/TSV input its record's line and the column's header or number. */
export interface Where {
  line: number;
  column?: string;
}

/** The service's answer about one code (--remote), as the contract types it. */
export type RemoteVerdict = ValidationResultData;

// Code units that JSON needs escaped, and surrogates (which JSON.stringify checks for pairs).
const JSON_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal: the common case (plain text) without JSON.stringify. */
export function jsonString(s: string): string {
  return JSON_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function problemJson(p: Problem): string {
  let out = `{"code":"${p.code}","message":${jsonString(p.message)},"severity":"${p.severity}"`;
  if (p.position !== undefined) out += `,"position":${p.position}`;
  if (p.expected !== undefined) out += `,"expected":${jsonString(p.expected)}`;
  return `${out}}`;
}

export function problemsJson(problems: readonly Problem[]): string {
  if (problems.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < problems.length; i++) out += (i === 0 ? '' : ',') + problemJson(problems[i]!);
  return `${out}]`;
}

/** One JSON Lines record: input, valid, normalized, kind, [display,] problems[, repaired][, fixed, fixed_valid][, line, column][, remote]. */
export function jsonLine(input: string, v: Verdict, withDisplay: boolean, remote?: RemoteVerdict, at?: Where, fix = false): string {
  let out = `{"input":${jsonString(input)},"valid":${v.valid},"normalized":${v.normalized === null ? 'null' : jsonString(v.normalized)},"kind":${v.kind === null ? 'null' : `"${v.kind}"`}`;
  if (withDisplay) out += `,"display":${v.display == null ? 'null' : jsonString(v.display)}`;
  out += `,"problems":${problemsJson(v.problems)}`;
  if (v.repaired) out += `,"repaired":${jsonString(v.repaired)}`;
  if (fix) {
    const f = fixedOf(v);
    out += `,"fixed":${f.fixed === null ? 'null' : jsonString(f.fixed)},"fixed_valid":${f.valid}`;
  }
  if (at) out += at.column === undefined ? `,"line":${at.line}` : `,"line":${at.line},"column":${jsonString(at.column)}`;
  if (remote) out += `,"remote":${JSON.stringify(remote)}`;
  return `${out}}\n`;
}

const TSV_ESCAPE = /[\\\u0000-\u001f\u007f]/;

/** A field that cannot break the row: backslash, tab, CR and other controls written as escapes. */
export function tsvField(s: string): string {
  if (!TSV_ESCAPE.test(s)) return s;
  return s.replace(/[\\\u0000-\u001f\u007f]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The problems in one line: errors first as found, warnings marked. */
export function reasonText(problems: readonly { message: string; severity: string }[]): string {
  if (problems.length === 0) return '';
  if (problems.length === 1) {
    const p = problems[0]!;
    return p.severity === 'warning' ? `warning: ${p.message}` : p.message;
  }
  return problems.map((p) => (p.severity === 'warning' ? `warning: ${p.message}` : p.message)).join('; ');
}

/**
 * Which fields a row or CSV record ends with, the same for every code of a run: the line when the
 * run reads a file or stdin, then the column when it reads a table. An argument's are empty.
 */
export interface PlaceFields {
  line: boolean;
  column: boolean;
}

/** input<TAB>valid|invalid<TAB>normalized<TAB>reason[<TAB>remote verdict<TAB>remote reason][<TAB>line[<TAB>column]][<TAB>fixed<TAB>fixed verdict] */
export function plainRow(input: string, v: Verdict, remote?: RemoteVerdict, at?: Where, fields?: PlaceFields, fix = false): string {
  let out = `${tsvField(input)}\t${v.valid ? 'valid' : 'invalid'}\t${v.normalized ?? ''}\t${v.problems.length === 0 ? '' : reasonText(v.problems)}`;
  if (remote) out += `\t${remote.valid ? 'valid' : 'invalid'}\t${tsvField(reasonText(remote.problems))}`;
  // Last, so that scripts reading the first fields by position are not disturbed.
  if (fields?.line) out += `\t${at?.line ?? ''}`;
  if (fields?.column) out += `\t${tsvField(at?.column ?? '')}`;
  if (fix) {
    const f = fixedOf(v);
    out += `\t${f.fixed === null ? '' : tsvField(f.fixed)}\t${f.valid === null ? '' : f.valid ? 'valid' : 'invalid'}`;
  }
  return `${out}\n`;
}

/**
 * --format csv: one row per code, to paste back into a spreadsheet. With --remote, the service's
 * verdict and problem codes (upc_in_use…) follow; for table input, the column last.
 */
export function csvHeader(remote: boolean, column: boolean, fix = false): string {
  return `line,input,verdict,problems,repaired,normalized${fix ? ',fixed,fixed_verdict' : ''}${remote ? ',service_verdict,service_problems' : ''}${column ? ',column' : ''}\r\n`;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvVerdict = (v: { valid: boolean; problems: readonly unknown[] }) => (!v.valid ? 'invalid' : v.problems.length > 0 ? 'warning' : 'valid');
const problemCodes = (problems: readonly { code: string }[]) => problems.map((p) => p.code).join(' ');

/**
 * line (when known), input, valid|invalid|warning, problem codes (space-separated), repaired code,
 * normalized code[, the fixed code and its verdict][, the service's verdict and codes][, the column].
 */
export function csvRow(input: string, v: Verdict, at?: Where, remote?: RemoteVerdict, column = false, fix = false): string {
  let row = `${at ? at.line : ''},${csvField(input)},${csvVerdict(v)},${csvField(problemCodes(v.problems))},${csvField(v.repaired ?? '')},${v.normalized ?? ''}`;
  if (fix) {
    const f = fixedOf(v);
    row += `,${f.fixed === null ? '' : csvField(f.fixed)},${f.valid === null ? '' : f.valid ? 'valid' : 'invalid'}`;
  }
  if (remote) row += `,${csvVerdict(remote)},${csvField(problemCodes(remote.problems))}`;
  if (column) row += `,${csvField(at?.column ?? '')}`;
  return `${row}\r\n`;
}
