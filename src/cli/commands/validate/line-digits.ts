// A line number as ASCII digits, for the bulk path's writers (fast.ts, invalid-lines.ts). Lines
// come in order, so the digits are counted up in place from the last line asked for instead of
// formatted anew: most lines change one digit. Formatting a number per line (a division loop, or
// String()) was a visible share of a run where every other line is invalid.

/** How far ahead counting up is still cheaper than formatting. */
const COUNT_UP = 8;

export class LineDigits {
  /** digits[0..length): the line number last asked for. */
  readonly digits = new Uint8Array(20);
  length = 0;
  private line = -1;

  /** Makes digits[0..length) the decimal digits of `line` (a positive integer). */
  set(line: number): void {
    const gap = line - this.line;
    if (gap === 0) return;
    if (this.line > 0 && gap > 0 && gap < COUNT_UP) {
      for (let k = 0; k < gap; k++) this.bump();
      this.line = line;
      return;
    }
    const text = String(line);
    for (let k = 0; k < text.length; k++) this.digits[k] = text.charCodeAt(k);
    this.length = text.length;
    this.line = line;
  }

  /** Writes the digits of `line` at out[pos..]; returns the position after them. */
  write(out: Uint8Array, pos: number, line: number): number {
    this.set(line);
    const { digits, length } = this;
    for (let k = 0; k < length; k++) out[pos + k] = digits[k]!;
    return pos + length;
  }

  /** One up: trailing nines become zeros; all nines grow a digit (999 → 1000). */
  private bump(): void {
    const digits = this.digits;
    let k = this.length - 1;
    while (k >= 0 && digits[k] === 57) digits[k--] = 48;
    if (k >= 0) {
      digits[k]!++;
      return;
    }
    digits[0] = 49;
    digits[this.length++] = 48;
  }
}
