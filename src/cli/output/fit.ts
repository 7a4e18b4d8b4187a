// Fitting a table to the terminal's width: long names and titles lose their tail to an ellipsis,
// then less important columns are hidden (and said to be). Never wrapped: one row stays one line.
// Ids, codes and URLs are never cut: a cut one is worse than a hidden one, which --json still has.
// Pure, for tests.

export interface FitColumn {
  header: string;
  /** Hidden when the table is too wide: the highest first. Without it, hidden only as a last resort. */
  drop?: number | undefined;
  /** Text a person reads (names, titles): may end in … when the table is too wide. Anything else stays whole. */
  cut?: boolean | undefined;
}

export interface Fitted {
  /** Indexes of the columns kept, in their order. */
  keep: number[];
  /** Each kept column's width, in the order of `keep`. */
  widths: number[];
  /** Indexes of the columns left out, in their order: the caller says which. */
  hidden: number[];
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

  const canShrink = (i: number) => columns[i]!.cut === true;
  // Shave the widest column that may shrink down to `floor`, one character at a time: long cells go first.
  const shave = (floor: (i: number) => number) => {
    while (total() > width) {
      const widest = keep.filter((i) => canShrink(i) && widths[i]! > floor(i)).sort((a, b) => widths[b]! - widths[a]!)[0];
      if (widest === undefined) return;
      widths[widest]!--;
    }
  };
  const hide = (order: readonly number[]) => {
    for (const i of order) {
      if (total() <= width) break;
      keep = keep.filter((k) => k !== i);
    }
  };
  // First long text gives up its tail down to a readable width, then less important columns go,
  // then text shrinks further.
  shave((i) => Math.min(natural[i]!, READABLE));
  const byDrop = keep.filter((i) => columns[i]!.drop !== undefined).sort((a, b) => columns[b]!.drop! - columns[a]!.drop!);
  hide(byDrop);
  // A column hidden early may fit again once a wider one went too: the most important back first.
  for (const i of byDrop.filter((k) => !keep.includes(k)).reverse()) {
    const back = [...keep, i].sort((a, b) => a - b);
    const was = keep;
    keep = back;
    if (total() > width) keep = was;
  }
  shave((i) => Math.min(natural[i]!, Math.max(textWidth(columns[i]!.header), MIN_CELL)));
  // Still too wide (a very narrow terminal): the other columns go from the right, the first stays,
  // rather than a row running over into the next line.
  hide(keep.slice(1).reverse());
  return { keep, widths: keep.map((i) => widths[i]!), hidden: columns.map((_, i) => i).filter((i) => !keep.includes(i)) };
}

/** What a table that left columns out says, once, on stderr. */
export function hiddenNote(headers: readonly string[]): string {
  return `${headers.join(', ')} hidden: widen the terminal or use --json`;
}
