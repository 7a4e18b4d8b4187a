import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/cli/shared/duration.js';
import { autoReviewSetting } from '../../src/cli/config/auto-review.js';
import { verdictOf } from '../../src/cli/commands/release/watch-target.js';

describe('durations', () => {
  it('reads ms, s, m, h and bare seconds', () => {
    expect(parseDuration('500ms', '--x')).toBe(500);
    expect(parseDuration('10s', '--x')).toBe(10_000);
    expect(parseDuration('5m', '--x')).toBe(300_000);
    expect(parseDuration('1h', '--x')).toBe(3_600_000);
    expect(parseDuration('1.5s', '--x')).toBe(1500);
    expect(parseDuration('3', '--x')).toBe(3000);
  });
  it('names the flag in one line when it cannot', () => {
    expect(() => parseDuration('5 min', '--interval')).toThrow('--interval: expected a duration like 500ms, 10s, 5m or 1h, got "5 min"');
    expect(() => parseDuration('10ms', '--interval', { minMs: 1000 })).toThrow('--interval: must be at least 1s, got "10ms"');
  });
  it('writes them back short', () => {
    expect([0, 500, 1000, 90_000, 3_600_000, 5_430_000].map(formatDuration)).toEqual(['0s', '500ms', '1s', '1m30s', '1h', '1h30m30s']);
  });
});

describe('auto-review setting', () => {
  it('takes the environment over the settings, and is off by default', () => {
    expect(autoReviewSetting({}, undefined)).toBeUndefined();
    expect(autoReviewSetting({}, { 'sandbox.auto_review': 'live', 'sandbox.review_delay': '2s' })).toEqual({ outcome: 'live', delayMs: 2000 });
    expect(autoReviewSetting({ RELDIST_SANDBOX_AUTO_REVIEW: 'reject' }, { 'sandbox.auto_review': 'live' })).toEqual({ outcome: 'reject', delayMs: 0 });
    expect(() => autoReviewSetting({ RELDIST_SANDBOX_AUTO_REVIEW: 'yes' }, undefined)).toThrow(
      'RELDIST_SANDBOX_AUTO_REVIEW: expected one of approve, reject, live',
    );
    expect(() => autoReviewSetting({ RELDIST_SANDBOX_REVIEW_DELAY: '1s' }, undefined)).toThrow(/needs an outcome/);
  });
});

describe('watch targets', () => {
  it('says whether a state is reached, rejected, unreachable or still on its way', () => {
    expect(verdictOf('in_review', 'reviewed').kind).toBe('waiting');
    expect(verdictOf('approved', 'reviewed').kind).toBe('reached');
    expect(verdictOf('delivered', 'approved').kind).toBe('reached');
    expect(verdictOf('delivered', 'live').kind).toBe('waiting');
    expect(verdictOf('rejected', 'reviewed').kind).toBe('rejected');
    expect(verdictOf('taken_down', 'live').kind).toBe('unreachable');
    expect(verdictOf('draft', 'approved').kind).toBe('unreachable');
  });
});
