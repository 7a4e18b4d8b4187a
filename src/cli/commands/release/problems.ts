// Rendering the problems a submit (or a dry run) returns: every one, one per line, grouped by
// the field they are about, so a label sees all of them at once. Pure: no I/O, no colour library.
import type { Problem } from '../../../contract/index.js';
import { inCliTerms } from '../../service-text.js';
import { plural, tsvCell } from '../../output/format.js';

/** A problem as the service reports it (the contract's Problem). */
export type SubmitProblem = Problem;

export interface ProblemGroup {
  /** The field path, or '' for problems about the release as a whole. */
  path: string;
  problems: SubmitProblem[];
}

export function isBlocking(p: SubmitProblem): boolean {
  return p.severity !== 'warning';
}

export function countProblems(problems: readonly SubmitProblem[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const p of problems) if (isBlocking(p)) errors++;
  return { errors, warnings: problems.length - errors };
}

/** "2 errors, 1 warning", "1 warning", "no problems". */
export function countText(problems: readonly SubmitProblem[]): string {
  const { errors, warnings } = countProblems(problems);
  const parts: string[] = [];
  if (errors) parts.push(`${plural(errors, 'error')}`);
  if (warnings) parts.push(`${plural(warnings, 'warning')}`);
  return parts.length ? parts.join(', ') : 'no problems';
}

/** Compares field paths segment by segment, numbers as numbers: tracks.2 before tracks.10. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const as = a.split('.');
  const bs = b.split('.');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i]!;
    const y = bs[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    // Release-level fields come before the tracks, whatever their names.
    if (i === 0 && (x === 'tracks') !== (y === 'tracks')) return x === 'tracks' ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

/** Groups by path (in path order); errors before warnings inside a group, else as the service sent them. */
export function groupProblems(problems: readonly SubmitProblem[]): ProblemGroup[] {
  const byPath = new Map<string, SubmitProblem[]>();
  for (const p of problems) {
    const key = p.path ?? '';
    let list = byPath.get(key);
    if (!list) byPath.set(key, (list = []));
    list.push(p);
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => comparePaths(a, b))
    .map(([path, list]) => ({ path, problems: [...list.filter(isBlocking), ...list.filter((p) => !isBlocking(p))] }));
}

export interface Paint {
  error(s: string): string;
  warning(s: string): string;
  path(s: string): string;
  dim(s: string): string;
}

export const noPaint: Paint = { error: (s) => s, warning: (s) => s, path: (s) => s, dim: (s) => s };

function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** One problem as one line: `error    code: message (hint: …)`. */
export function problemLine(p: SubmitProblem, paint: Paint = noPaint): string {
  const sev = isBlocking(p) ? paint.error('error  ') : paint.warning('warning');
  const code = p.code ? `${p.code}: ` : '';
  const hint = p.hint ? paint.dim(` (hint: ${oneLine(inCliTerms(p.hint))})`) : '';
  return `${sev}  ${code}${oneLine(inCliTerms(p.message))}${hint}`;
}

/**
 * For a person: the path on its own line, its problems under it, one per line.
 *
 *   tracks.0.isrc
 *     error    isrc_duplicate: … (hint: …)
 */
export function renderProblemGroups(problems: readonly SubmitProblem[], paint: Paint = noPaint, indent = ''): string {
  let out = '';
  for (const g of groupProblems(problems)) {
    out += `${indent}${paint.path(g.path === '' ? '(release)' : g.path)}\n`;
    for (const p of g.problems) out += `${indent}  ${problemLine(p, paint)}\n`;
  }
  return out;
}

/**
 * For a pipe: the leading columns (release id, outcome…), then `path  severity  code  message  hint`,
 * one problem per row, in group order.
 */
export function problemRows(lead: readonly string[], problems: readonly SubmitProblem[]): string {
  // Written straight into one string: a 500-release submit prints thousands of these rows.
  let start = '';
  for (const cell of lead) start += `${tsvCell(cell)}\t`;
  let out = '';
  for (const g of groupProblems(problems)) {
    const path = tsvCell(g.path);
    for (const p of g.problems) {
      out += `${start}${path}\t${isBlocking(p) ? 'error' : 'warning'}\t${tsvCell(p.code)}\t${tsvCell(inCliTerms(p.message))}\t${tsvCell(inCliTerms(p.hint ?? ''))}\n`;
    }
  }
  return out;
}
