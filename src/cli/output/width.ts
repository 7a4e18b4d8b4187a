// Lines on stderr for a person: wrapped to the terminal's width when stderr is one. Piped (a CI
// log, `2>&1 | grep`), a message stays on one line, whole, as scripts search it.
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import { wrapText } from './wrap.js';

/** stderr's width when it is a terminal (its own, else stdout's); undefined when it is not one. */
export function stderrWidth(ctx: { io: IO }): number | undefined {
  const io = ctx.io;
  const width = io.stderrIsTTY ? (io.stderrColumns ?? io.columns) : undefined;
  return width !== undefined && width > 0 ? width : undefined;
}

/** Writes `text` (whole lines, ending with a line break) to stderr, wrapped to its width on a terminal. */
export function writeStderr(ctx: Pick<Context, 'io'>, text: string): void {
  ctx.io.stderr.write(wrapText(text, stderrWidth(ctx)));
}
