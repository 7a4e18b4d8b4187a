// What commands print. Data goes to stdout (one JSON value with --json, a table on a terminal,
// tab-separated rows when piped); notices and progress go to stderr.
import type { Context } from '../context.js';
import { renderList, renderRecord, type Field, type RenderOptions } from './render.js';
import { jsonText, visible, type Column } from './format.js';
import { hiddenNote } from './fit.js';
import { writeStderr } from './width.js';

export type { Column, Kind } from './format.js';
export type { Field } from './render.js';
export { headerOf, jsonId, jsonText, plural, tsvCell, visible } from './format.js';
export { stderrWidth, writeStderr } from './width.js';

export function renderOptions(ctx: Context): RenderOptions {
  return { mode: ctx.io.stdoutIsTTY ? 'terminal' : 'plain', color: ctx.color, now: ctx.now(), width: ctx.io.stdoutIsTTY ? ctx.io.columns : undefined };
}

/** One JSON value on stdout. */
export function printJson(ctx: Context, value: unknown): void {
  ctx.io.stdout.write(`${jsonText(value ?? null, 2)}\n`);
}

export interface ListOptions {
  /** What --json prints (default: the rows). */
  json?: unknown;
  /** Said on stderr on a terminal when there are no rows (an empty list is still success). */
  empty?: string;
}

/** A list: one JSON array, a table, or TSV rows. */
export async function printList<T>(ctx: Context, rows: readonly T[], columns: readonly Column<T>[], options: ListOptions = {}): Promise<void> {
  if (ctx.globals.json) return printJson(ctx, options.json ?? rows);
  if (rows.length === 0) {
    if (options.empty) note(ctx, options.empty);
    return;
  }
  await printTable(ctx, rows, columns);
}

/**
 * A table on stdout (TSV rows when piped), after `before` (a blank line under a record); when the
 * terminal is too narrow for every column, stderr says which were left out, once.
 */
export async function printTable<T>(ctx: Context, rows: readonly T[], columns: readonly Column<T>[], before = ''): Promise<void> {
  let hidden: string[] = [];
  const text = await renderList(rows, columns, { ...renderOptions(ctx), onHidden: (h) => (hidden = h) });
  ctx.io.stdout.write(before + text);
  if (hidden.length > 0) note(ctx, hiddenNote(hidden));
}

/** One object: JSON, `Label:  value` lines, or `label<TAB>value` lines. */
export async function printRecord<T>(ctx: Context, value: T, fields: readonly Field<T>[], options: { json?: unknown } = {}): Promise<void> {
  if (ctx.globals.json) return printJson(ctx, options.json ?? value);
  ctx.io.stdout.write(await renderRecord(value, fields, renderOptions(ctx)));
}

/**
 * Notes, warnings and success lines are for a person: they go to stderr only when it is a
 * terminal, and --quiet silences them. A script's logs get data and errors, nothing else.
 */
export function forPerson(ctx: Context): boolean {
  return ctx.io.stderrIsTTY && !ctx.globals.quiet;
}

/** A message for a person on stderr (a terminal only; --quiet silences it). */
export function note(ctx: Context, message: string): void {
  if (forPerson(ctx)) writeStderr(ctx, `${visible(message)}\n`);
}

/** A warning for a person on stderr (a terminal only; --quiet silences it; errors are never silenced). */
export function warn(ctx: Context, message: string): void {
  if (forPerson(ctx)) writeStderr(ctx, `warning: ${visible(message)}\n`);
}

/** A success line (`✓ Created release 42`) on stderr, for a person at a terminal. */
export function success(ctx: Context, message: string): void {
  if (forPerson(ctx)) writeStderr(ctx, `✓ ${visible(message)}\n`);
}

export { formatBytes, progress, type Progress, type ProgressOptions } from './progress.js';
