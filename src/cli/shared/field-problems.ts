// Turns zod's issues into "field path: expected …" problems a person can act on. zod's own
// messages ("Invalid input: expected string, received undefined") read like a stack trace.
import type { z } from 'zod';
import { plural } from '../output/format.js';

export interface FieldProblem {
  /** Keys and indexes from the root of the document. */
  path: (string | number)[];
  message: string;
}

type Issue = z.core.$ZodIssue;

export function pathText(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(top level)' : path.join('.');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of fields',
  null: 'null',
  undefined: 'nothing',
  bigint: 'a number',
  date: 'a date',
};

function typeName(t: string): string {
  return TYPE_NAMES[t] ?? t;
}

/** What the document holds, in words: "a number", "a list", "text". */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v === '' ? 'empty text' : `"${v.length > 40 ? `${v.slice(0, 37)}...` : v}"`;
  if (typeof v === 'number') return Number.isInteger(v) ? `the number ${v}` : `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'object') return 'a mapping of fields';
  return typeof v;
}

const FORMAT_NAMES: Record<string, string> = {
  date: 'a date like 2027-01-15',
  datetime: 'a date and time like 2027-01-15T10:00:00Z',
  url: 'a URL like https://example.com/cover.jpg',
  email: 'an email address',
};

/** zod's default messages start like this; a schema's own message is shown as written. */
const DEFAULT_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;

function expectedOf(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected);
    case 'invalid_value':
      return issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => String(v)).join(', ')}`;
    default:
      return undefined;
  }
}

function unionProblems(issue: Extract<Issue, { code: 'invalid_union' }>, input: unknown, base: (string | number)[]): FieldProblem[] {
  const branches = issue.errors.filter((b) => b.length > 0);
  // Every branch refused the value itself: list what each would have taken.
  const atRoot = branches.every((b) => b.length === 1 && b[0]!.path.length === 0 && expectedOf(b[0]!) !== undefined);
  if (branches.length > 0 && atRoot) {
    const wanted = [...new Set(branches.map((b) => expectedOf(b[0]!)!))];
    return [{ path: base, message: `expected ${wanted.join(' or ')}, got ${describeValue(input)}` }];
  }
  // Otherwise the branch that got furthest into the value is the one the author meant: all its problems.
  const depth = (b: readonly Issue[]) => Math.max(...b.map((i) => i.path.length));
  const best = [...branches].sort((a, b) => depth(b) - depth(a))[0];
  if (!best) return [{ path: base, message: 'does not match any allowed form' }];
  return problemsFromIssues(best, input).map((p) => ({ ...p, path: [...base, ...p.path] }));
}

function keyOf(k: PropertyKey): string | number {
  return typeof k === 'number' ? k : String(k);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function sizeMessage(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const small = issue.code === 'too_small';
  const n = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const bound = small ? (issue.inclusive === false ? 'more than' : 'at least') : issue.inclusive === false ? 'less than' : 'at most';
  switch (issue.origin) {
    case 'string':
      return small && n === 1 ? 'must not be empty' : `expected ${bound} ${plural(n, 'character')}`;
    case 'array':
    case 'set':
      return small && n === 1 ? 'expected at least one entry' : `expected ${bound} ${n} entr${n === 1 ? 'y' : 'ies'}`;
    default:
      return `expected a number ${bound} ${n}`;
  }
}

function messageOf(issue: Issue, input: unknown): string {
  // A schema's own message: "an ISO 3166-1 alpha-2 code, e.g. DE" reads as what is expected.
  if (!DEFAULT_MESSAGE.test(issue.message)) return /^(an?|one|the) /.test(issue.message) ? `expected ${issue.message}` : issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `required: expected ${typeName(issue.expected)}`;
      return `expected ${typeName(issue.expected)}, got ${describeValue(input)}`;
    case 'invalid_value':
      return `expected ${expectedOf(issue)}, got ${describeValue(input)}`;
    case 'invalid_format':
      return `expected ${FORMAT_NAMES[issue.format] ?? `the ${issue.format} format`}, got ${describeValue(input)}`;
    case 'too_big':
    case 'too_small':
      return sizeMessage(issue);
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message.replace(/^Invalid input:\s*/i, '');
  }
}

/** One problem per issue, each with the full path of the field it is about. */
export function problemsFromIssues(issues: readonly Issue[], root: unknown): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const base = issue.path.map(keyOf);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...base, key], message: 'unknown field (check its spelling)' });
      continue;
    }
    const input = valueAt(root, issue.path);
    if (issue.code === 'invalid_union') {
      out.push(...unionProblems(issue, input, base));
      continue;
    }
    out.push({ path: base, message: messageOf(issue, input) });
  }
  return out;
}
