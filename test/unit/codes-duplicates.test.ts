import { describe, expect, it } from 'vitest';
import { DuplicateIndex } from '../../src/cli/commands/validate/duplicates.js';

// Keys as the bulk path makes them: up to 14-digit UPC values and packed ISRCs, below 2^53.
function keys(count: number): number[] {
  const out: number[] = [];
  let s = 7;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(i * 1e9 + s);
  }
  return out;
}

function check(index: DuplicateIndex, all: number[]): void {
  all.forEach((k, i) => expect(index.firstOrAdd(k, i + 1)).toBe(0));
  // Each key again (later places): its first place, never another key's.
  all.forEach((k, i) => expect(index.firstOrAdd(k, all.length + i + 1)).toBe(i + 1));
}

describe('DuplicateIndex', () => {
  it('gives the first place of an equal key only, growing past its expected size', () => {
    check(new DuplicateIndex(), keys(20_000));
    check(new DuplicateIndex(50_000), keys(20_000));
  });

  it('tells keys apart that differ only above 32 bits', () => {
    const index = new DuplicateIndex();
    expect(index.firstOrAdd(1, 1)).toBe(0);
    expect(index.firstOrAdd(1 + 2 ** 32, 2)).toBe(0);
    expect(index.firstOrAdd(1 + 2 ** 40, -3)).toBe(0);
    expect(index.firstOrAdd(1 + 2 ** 40, 4)).toBe(-3);
    expect(index.firstOrAdd(1, 5)).toBe(1);
  });
});
