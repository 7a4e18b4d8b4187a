import { describe, expect, it } from 'vitest';
import { LineDigits } from '../../src/cli/commands/validate/line-digits.js';

const text = (d: LineDigits) => String.fromCharCode(...d.digits.subarray(0, d.length));

describe('LineDigits', () => {
  it('gives the decimal digits of each line, counted up or formatted, across every change of width', () => {
    const d = new LineDigits();
    const out = new Uint8Array(32);
    let line = 1;
    let seed = 7;
    // Mostly steps of 1 to 9 (counted up, or past COUNT_UP formatted), now and then a jump; bounded.
    for (let n = 0; n < 40_000 && line < 2e9; n++) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      const end = d.write(out, 3, line);
      expect(text(d)).toBe(String(line));
      expect(Buffer.from(out.subarray(3, end)).toString('latin1')).toBe(String(line));
      line += seed % 1000 === 0 ? seed % 100_000 : 1 + (seed % 9);
      if (n === 30_000) line = 999_990;
    }
  });

  it('grows a digit when every digit is a nine, and asking twice for a line changes nothing', () => {
    const d = new LineDigits();
    for (const [from, to] of [
      [9, 10],
      [99, 100],
      [999_999, 1_000_000],
      [95, 101],
    ]) {
      d.set(from!);
      d.set(from!);
      expect(text(d)).toBe(String(from));
      d.set(to!);
      expect(text(d)).toBe(String(to));
    }
  });
});
