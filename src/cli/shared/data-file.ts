// Reads a JSON or YAML input file (releases, tracks, settings, preferences), checks it against a
// schema of the contract, and reports every problem as `file:line: field.path: expected …`.
// JSON goes through the YAML parser too (JSON is YAML 1.2), so both get line numbers.
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { pathText, problemsFromIssues, type FieldProblem } from './field-problems.js';

export interface LocatedProblem extends FieldProblem {
  line?: number;
}

/** A file with problems: one of them is the message; several are its details and it names the count. */
export class FileProblemsError extends UsageError {
  readonly lines: string[];
  constructor(
    readonly file: string,
    problems: LocatedProblem[],
    hint = 'fix the fields named above and run again',
  ) {
    const lines = problems.map((p) => formatProblem(file, p));
    super(lines.length === 1 ? lines[0]! : `${file}: ${lines.length} problems`, hint, lines.length > 1 ? lines : undefined);
    this.name = 'FileProblemsError';
    this.lines = lines;
  }
}

export function formatProblem(file: string, p: LocatedProblem): string {
  return `${file}${p.line !== undefined ? `:${p.line}` : ''}: ${pathText(p.path)}: ${p.message}`;
}

/** Keys whose values are codes: a bare YAML number would lose its leading zeros, so keep the text. */
const CODE_KEYS = new Set(['upc', 'isrc', 'catalog_number']);

export interface ParsedFile {
  /** The name to show in messages: the path as the user gave it. */
  name: string;
  value: unknown;
  doc: Document.Parsed;
  lines: LineCounter;
}

/** Parses text as YAML or JSON. Syntax errors become located problems. */
export function parseText(name: string, text: string, hint?: string): ParsedFile {
  const lines = new LineCounter();
  const doc = parseDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new FileProblemsError(
      name,
      doc.errors.map((e) => ({
        path: [],
        message: `not valid YAML or JSON: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        line: e.linePos?.[0]?.line ?? lines.linePos(e.pos[0]).line,
      })),
      hint,
    );
  }
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && CODE_KEYS.has(String(pair.key.value)) && isScalar(pair.value) && typeof pair.value.value === 'number') {
        pair.value.value = pair.value.source ?? String(pair.value.value);
      }
    },
  });
  return { name, value: doc.toJS({ maxAliasCount: 100 }), doc, lines };
}

/** The line of the deepest node on `path` that exists (a missing field points at its parent). */
export function lineOf(parsed: ParsedFile, path: readonly (string | number)[]): number | undefined {
  let node: unknown = parsed.doc.contents;
  // A field missing at the top level has no better line than none.
  let line: number | undefined;
  for (const key of path) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
      if (pair) {
        // The key's own line: a field's value may start on the next line.
        line = rangeLine(parsed, pair.key) ?? line;
        next = pair.value;
      }
    } else if (isSeq(node) && typeof key === 'number') {
      next = node.items[key];
      line = rangeLine(parsed, next) ?? line;
    }
    if (next === undefined) break;
    node = next;
  }
  return line;
}

function rangeLine(parsed: ParsedFile, node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? parsed.lines.linePos(range[0]).line : undefined;
}

/** Checks a parsed file against a schema; returns the typed value or throws FileProblemsError. */
export function validateParsed<S extends z.ZodType>(parsed: ParsedFile, schema: S, hint?: string): z.output<S> {
  const result = schema.safeParse(parsed.value);
  if (result.success) return result.data;
  throw new FileProblemsError(parsed.name, locate(parsed, problemsFromIssues(result.error.issues, parsed.value)), hint);
}

/** Adds line numbers and puts problems in the order of the file (those without a line first). */
export function locate(parsed: ParsedFile, problems: FieldProblem[]): LocatedProblem[] {
  const located = problems.map((p, i) => {
    const line = lineOf(parsed, p.path);
    return { p: line === undefined ? p : { ...p, line }, i, line: line ?? 0 };
  });
  return located.sort((a, b) => a.line - b.line || a.i - b.i).map((x) => x.p);
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Input files are small documents; anything this big is the wrong file. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Reads `path` (or stdin for "-"), naming the flag in errors. */
export async function readInputFile(path: string, flag: string, stdin?: Readable, shown = path): Promise<{ name: string; text: string }> {
  if (path === '-') {
    if (!stdin) throw new UsageError(`${flag} -: standard input is not available here`);
    return { name: 'stdin', text: await readAll(stdin) };
  }
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, expected a file'
          : code === 'EACCES'
            ? 'permission denied'
            : (err as Error).message;
    throw new UsageError(`${flag} ${shown}: ${why}`, `pass the path of a JSON or YAML file to ${flag}`);
  }
  if (buf.length > MAX_FILE_BYTES) throw new UsageError(`${flag} ${shown}: the file is ${buf.length} bytes; expected a JSON or YAML document under 8 MiB`);
  return { name: shown, text: buf.toString('utf8') };
}

/** Reads, parses and validates a JSON/YAML input file in one go. */
export async function loadDataFile<S extends z.ZodType>(path: string, flag: string, schema: S, stdin?: Readable): Promise<z.output<S>> {
  return (await loadDataFileWithLines(path, flag, schema, stdin)).value;
}

/** The same, keeping the parsed file: its name and lines, to name a value's place later. */
export async function loadDataFileWithLines<S extends z.ZodType>(
  path: string,
  flag: string,
  schema: S,
  stdin?: Readable,
): Promise<{ value: z.output<S>; parsed: ParsedFile }> {
  const { name, text } = await readInputFile(path, flag, stdin);
  const parsed = parseText(name, text);
  return { value: validateParsed(parsed, schema), parsed };
}
