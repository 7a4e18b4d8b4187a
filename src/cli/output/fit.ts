// Fitting a table to the terminal's width: less important columns go first, then the widest cells
// lose their tail to an ellipsis. Never wrapped: one row stays one line. Pure, for tests.

export interface FitColumn {
  header: string;
  /** Dropped when the table is too wide: the highest first. Without it, never dropped. */
  drop?: number | undefined;
  /** Cells that must stay whole (ids, statuses, dates, numbers): never truncated. */
  whole?: boolean;
}

export interface Fitted {
  /** Indexes of the columns kept, in their order. */
  keep: number[];
  /** Each kept column's width, in the order of `keep`. */
  widths: number[];
}

/** Characters shown (code points; our cells have no double-width text we could measure without a library). */
export function textWidth(s: string): number {
  return [...s].length;
}

/** A cell cut to `width` characters, its last one an ellipsis when anything was cut. */
export function truncate(s: string, width: number): string {
  const chars = [...s];
  return chars.length <= width ? s : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

const MIN_CELL = 5;
const READABLE = 24;

/** Which columns to keep and how wide each may be, for `cells` (rows of plain text) in `width` characters with `gap` between columns. */
export function fitColumns(columns: readonly FitColumn[], cells: readonly (readonly string[])[], width: number, gap: number): Fitted {
  let keep = columns.map((_, i) => i);
  const natural = columns.map((c, i) => Math.max(textWidth(c.header), ...cells.map((r) => textWidth(r[i] ?? ''))));
  const widths = [...natural];
  const total = () => keep.reduce((n, i) => n + widths[i]!, 0) + gap * Math.max(0, keep.length - 1);

  const canShrink = (i: number) => !columns[i]!.whole;
  // Shave the widest column that may shrink down to `floor`, one character at a time: long cells go first.
  const shave = (floor: (i: number) => number) => {
    while (total() > width) {
      const widest = keep.filter((i) => canShrink(i) && widths[i]! > floor(i)).sort((a, b) => widths[b]! - widths[a]!)[0];
      if (widest === undefined) return;
      widths[widest]!--;
    }
  };
  // First long text gives up its tail down to a readable width, then less important columns go,
  // then text shrinks further.
  shave((i) => Math.min(natural[i]!, READABLE));
  const droppable = keep.filter((i) => columns[i]!.drop !== undefined).sort((a, b) => columns[b]!.drop! - columns[a]!.drop!);
  for (const i of droppable) {
    if (total() <= width) break;
    keep = keep.filter((k) => k !== i);
  }
  shave((i) => Math.min(natural[i]!, Math.max(textWidth(columns[i]!.header), MIN_CELL)));
  return { keep, widths: keep.map((i) => widths[i]!) };
}
