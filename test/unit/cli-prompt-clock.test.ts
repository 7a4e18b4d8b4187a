// The --timeout clock stops while a prompt waits for a person (deadline.ts hold), and a
// confirmation takes only y/yes/n/no or Enter (yes-no.ts). Timers are faked: no wall clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startDeadline } from '../../src/cli/deadline.js';
import { strictConfirm, yesNoAnswer, yesNoRefusal } from '../../src/cli/yes-no.js';
import type { Prompter } from '../../src/cli/lazy.js';

describe('the --timeout clock', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function expiredFlag(d: { expired: Promise<unknown> }): { value: boolean } {
    const flag = { value: false };
    void d.expired.then(() => (flag.value = true));
    return flag;
  }

  it('does not count the time a hold lasts, and counts what ran before and after it', async () => {
    const d = startDeadline(1000, () => 'seen');
    const expired = expiredFlag(d);
    await vi.advanceTimersByTimeAsync(600);
    const release = d.hold();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(expired.value).toBe(false);
    expect(d.signal.aborted).toBe(false);
    release();
    await vi.advanceTimersByTimeAsync(399);
    expect(expired.value).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(expired.value).toBe(true);
    expect(d.signal.aborted).toBe(true);
  });

  it('runs again only when the last of overlapping holds ends; a hold released twice counts once', async () => {
    const d = startDeadline(1000, () => 'seen');
    const expired = expiredFlag(d);
    const a = d.hold();
    const b = d.hold();
    a();
    a();
    await vi.advanceTimersByTimeAsync(5000);
    expect(expired.value).toBe(false);
    b();
    await vi.advanceTimersByTimeAsync(1001);
    expect(expired.value).toBe(true);
  });

  it('without a bound, holding changes nothing', async () => {
    const d = startDeadline(undefined, () => 'seen');
    d.hold()();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(d.signal.aborted).toBe(false);
  });

  it('a hold after the time is up or after stop() does not start the clock again', async () => {
    const d = startDeadline(100, () => 'seen');
    await vi.advanceTimersByTimeAsync(101);
    expect(d.signal.aborted).toBe(true);
    d.hold()();
    const s = startDeadline(100, () => 'seen');
    s.stop();
    s.hold()();
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.signal.aborted).toBe(false);
  });
});

describe('a yes/no answer', () => {
  it('takes y, yes, n, no in any case, and Enter for the default; nothing else', () => {
    for (const yes of ['y', 'Y', 'yes', 'YES', ' Yes ']) expect(yesNoAnswer(yes, false)).toBe(true);
    for (const no of ['n', 'N', 'no', 'No', 'NO ']) expect(yesNoAnswer(no, true)).toBe(false);
    expect(yesNoAnswer('', true)).toBe(true);
    expect(yesNoAnswer('  ', false)).toBe(false);
    for (const stray of ['sure', 'yep', 'nope', 'ye', 'yess', '1', '0', 'ok', 'q', 'y n']) expect(yesNoAnswer(stray, true)).toBeUndefined();
    expect(yesNoRefusal(true)).toBe('answer y or n (Enter for yes)');
  });

  it('is asked through a validated input that refuses stray text and shows only Yes or No once answered', async () => {
    const typed = ['sure', 'maybe', 'NO'];
    const seen: string[] = [];
    const input = (async (config: { validate: (v: string) => true | string; transformer: (v: string, s: { isFinal: boolean }) => string }) => {
      seen.push(config.transformer('', { isFinal: false }));
      for (const t of typed) {
        const ok = config.validate(t);
        if (ok === true) {
          seen.push(config.transformer(t, { isFinal: true }));
          return t;
        }
        seen.push(`${t}: ${ok}`);
      }
      throw new Error('no answer accepted');
    }) as unknown as Prompter['input'];
    const answer = await strictConfirm(input)({ message: 'Create this release?', default: true });
    expect(answer).toBe(false);
    expect(seen).toEqual(['(Y/n)', 'sure: answer y or n (Enter for yes)', 'maybe: answer y or n (Enter for yes)', 'No']);
  });
});
