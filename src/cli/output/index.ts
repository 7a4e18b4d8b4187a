// What commands print. Data goes to stdout (one JSON value with --json, a table on a terminal,
// tab-separated rows when piped); notices and progress go to stderr.
import type { Context } from '../context.js';
import { renderList, renderRecord, type Field, type RenderOptions } from './render.js';
import { jsonText, visible, type Column } from './format.js';

export type { Column, Kind } from './format.js';
export type { Field } from './render.js';
export { headerOf, jsonId, jsonText, plural, tsvCell, visible } from './format.js';

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
  ctx.io.stdout.write(await renderList(rows, columns, renderOptions(ctx)));
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
  if (forPerson(ctx)) ctx.io.stderr.write(`${visible(message)}\n`);
}

/** A warning for a person on stderr (a terminal only; --quiet silences it; errors are never silenced). */
export function warn(ctx: Context, message: string): void {
  if (forPerson(ctx)) ctx.io.stderr.write(`warning: ${visible(message)}\n`);
}

/** A success line (`✓ Created release 42`) on stderr, for a person at a terminal. */
export function success(ctx: Context, message: string): void {
  if (forPerson(ctx)) ctx.io.stderr.write(`✓ ${visible(message)}\n`);
}

export interface Progress {
  /** `done` of `total` units (bytes, pages, items). */
  update(done: number, total?: number): void;
  /** Ends the line; prints `message` if given. */
  done(message?: string): void;
}

const silent: Progress = { update() {}, done() {} };

/**
 * A one-line progress indicator on stderr, redrawn at most every 100 ms; only on a terminal and
 * without --quiet, so CI logs stay clean.
 */
export function progress(ctx: Context, label: string, options: { total?: number; unit?: 'bytes' | 'items' } = {}): Progress {
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet) return silent;
  let total = options.total;
  let last = 0;
  let drawn = false;
  const fmt = (n: number) => (options.unit === 'bytes' ? formatBytes(n) : String(n));
  const draw = (done: number) => {
    const pct = total ? ` ${Math.min(100, Math.floor((done / total) * 100))}%` : '';
    const of = total ? `${fmt(done)}/${fmt(total)}` : fmt(done);
    ctx.io.stderr.write(`\r\x1b[2K${label}${pct} (${of})`);
    drawn = true;
  };
  return {
    update(done, t) {
      if (t !== undefined) total = t;
      const now = Date.now();
      if (now - last < 100 && !(total !== undefined && done >= total)) return;
      last = now;
      draw(done);
    },
    done(message) {
      if (drawn) ctx.io.stderr.write('\r\x1b[2K');
      if (message) ctx.io.stderr.write(`${message}\n`);
    },
  };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
