// The counts behind the summary on stderr, shared by the general path and the bulk paths.

export class Tally {
  checked = 0;
  valid = 0;
  invalid = 0;
  /** Valid codes with a warning. */
  warned = 0;
  private readonly byCode = new Map<string, { n: number }>();

  /** The counter of one problem code: the bulk path keeps it to count without a look-up. */
  counter(code: string): { n: number } {
    let c = this.byCode.get(code);
    if (c === undefined) this.byCode.set(code, (c = { n: 0 }));
    return c;
  }

  /** Problem codes with their counts, most frequent first. */
  problems(): Record<string, number> {
    const rows = [...this.byCode].filter(([, c]) => c.n > 0).map(([code, c]) => [code, c.n] as const);
    return Object.fromEntries(rows.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }
}
