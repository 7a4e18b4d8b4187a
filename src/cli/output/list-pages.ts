// A list printed page by page as the pages arrive (`--all` over a large catalog): the same bytes
// printList prints for all the rows at once, while only one page is held in memory. On a terminal
// (a table sized to every row, or JSON) it still waits for all of them: the progress line on
// stderr must be gone before anything is printed there.
import { once } from 'node:events';
import type { Context } from '../context.js';
import { jsonText, type Column } from './format.js';
import { printList, renderOptions, type ListOptions } from './index.js';
import { renderList } from './render.js';

/** `fetched` runs once every page has come (the caller clears its progress line). */
export async function printListPages<T>(
  ctx: Context,
  pages: AsyncIterable<readonly T[]>,
  columns: readonly Column<T>[],
  options: Omit<ListOptions, 'json'> & { fetched?: () => void } = {},
): Promise<void> {
  if (ctx.io.stdoutIsTTY) {
    const rows: T[] = [];
    for await (const page of pages) rows.push(...page);
    options.fetched?.();
    return printList(ctx, rows, columns, options);
  }
  const opts = renderOptions(ctx);
  let count = 0;
  for await (const page of pages) {
    let text = '';
    if (ctx.globals.json) {
      // JSON.stringify(rows, null, 2), a page at a time: the page's array as it would be printed,
      // without its brackets ("[\n" and "\n]"), joined to the pages before it with ",\n".
      if (page.length > 0) text = `${count === 0 ? '[\n' : ',\n'}${jsonText(page, 2).slice(2, -2)}`;
      count += page.length;
    } else {
      count += page.length;
      text = await renderList(page, columns, opts);
    }
    if (text && !ctx.io.stdout.write(text)) await once(ctx.io.stdout, 'drain');
  }
  options.fetched?.();
  if (ctx.globals.json) ctx.io.stdout.write(count === 0 ? '[]\n' : '\n]\n');
  else if (count === 0) await printList(ctx, [], columns, options);
}
