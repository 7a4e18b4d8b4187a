import { expect, test } from 'vitest';
import { RateLimiter } from '../../src/server/http/rate-limit.js';

test('a bucket allows its burst, then asks to wait, and refills with time', () => {
  const rl = new RateLimiter({ requests: 3, windowMs: 3000 });
  expect([rl.take('a', 0), rl.take('a', 0), rl.take('a', 0)]).toEqual([0, 0, 0]);
  expect(rl.take('a', 0)).toBe(1);
  expect(rl.take('b', 0)).toBe(0);
  expect(rl.take('a', 1000)).toBe(0);
  expect(rl.take('a', 1000)).toBeGreaterThan(0);
});

test('retry-after grows with a slow refill', () => {
  const rl = new RateLimiter({ requests: 1, windowMs: 60_000 });
  rl.take('k', 0);
  expect(rl.take('k', 0)).toBe(60);
});

test('bad options are refused', () => {
  expect(() => new RateLimiter({ requests: 0, windowMs: 1 })).toThrow();
});
