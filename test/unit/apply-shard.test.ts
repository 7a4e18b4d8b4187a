import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from '../../src/cli/apply/shard.js';
import { UsageError } from '../../src/cli/errors.js';

describe('apply --shard', () => {
  it('gives a catalog number the same shard every time, whatever its case or spaces', () => {
    const first = shardOf('NLR-0001', 4);
    for (let i = 0; i < 20; i++) expect(shardOf('NLR-0001', 4)).toBe(first);
    expect(shardOf('  nlr-0001 ', 4)).toBe(first);
    // Pinned: a change of the function would move releases between CI jobs.
    expect([shardOf('NLR-0001', 4), shardOf('NLR-0002', 4), shardOf('ABC-123', 7), shardOf('x', 1)]).toEqual([1, 3, 6, 1]);
  });

  it('spreads 10,000 catalog numbers roughly evenly over 4 shards', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 10_000; i++) {
      const s = shardOf(`NLR-${String(i).padStart(5, '0')}`, 4);
      expect(s).toBeGreaterThanOrEqual(1);
      expect(s).toBeLessThanOrEqual(4);
      counts[s - 1]!++;
    }
    for (const c of counts) expect(Math.abs(c - 2500)).toBeLessThan(200);
  });

  it('puts every catalog number in exactly one shard', () => {
    for (let i = 0; i < 200; i++) {
      const number = `CAT${i}`;
      const shards = [1, 2, 3].filter((index) => inShard(number, { index, count: 3 }));
      expect(shards).toHaveLength(1);
    }
  });

  it('parses I/N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it.each(['', '2', '2/', '/4', 'a/b', '2-4', '1.5/4', '-1/4'])('refuses "%s" with one line naming --shard', (text) => {
    expect(() => parseShard(text)).toThrow(UsageError);
    expect(() => parseShard(text)).toThrow(/^--shard: expected I\/N .*e\.g\. 2\/4; got "/);
  });

  it.each([
    ['0/4', /I must be from 1 to 4/],
    ['5/4', /I must be from 1 to 4/],
    ['1/0', /N must be from 1 to 1000/],
    ['1/5000', /N must be from 1 to 1000/],
  ])('refuses %s', (text, message) => {
    expect(() => parseShard(text)).toThrow(message);
    try {
      parseShard(text);
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
      expect((err as Error).message.startsWith('--shard: ')).toBe(true);
    }
  });
});
