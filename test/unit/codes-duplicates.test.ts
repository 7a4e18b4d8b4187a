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

  it('gives the first place of codes seen again at any time, across growing (first places logged, written on a repeat)', () => {
    // A reference Map against the index: repeats come at random moments, some right after their
    // first place, some long after, many while the table grows (it starts at 4,096 slots).
    const index = new DuplicateIndex();
    const first = new Map<number, number>();
    const seen: number[] = [];
    let s = 11;
    for (let where = 1; where <= 30_000; where++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      const again = seen.length > 0 && s % 7 === 0;
      const key = again ? seen[s % seen.length]! : s * 4096 + where;
      if (!again) seen.push(key);
      expect(index.firstOrAdd(key, where)).toBe(first.get(key) ?? 0);
      if (!first.has(key)) first.set(key, where);
    }
  });
});

describe('DuplicateIndex keys', () => {
  it('takes any number as a key exactly (past 2^49, fractions)', () => {
    const index = new DuplicateIndex();
    for (const [k, w] of [
      [2 ** 50, 1],
      [2 ** 52 + 2, 2],
      [0.5, 3],
      [2 ** 49 - 1, 4],
    ] as const)
      expect(index.firstOrAdd(k, w)).toBe(0);
    expect(index.firstOrAdd(2 ** 50, 9)).toBe(1);
    expect(index.firstOrAdd(2 ** 52 + 2, 9)).toBe(2);
    expect(index.firstOrAdd(0.5, 9)).toBe(3);
    expect(index.firstOrAdd(2 ** 49 - 1, 9)).toBe(4);
  });
});
