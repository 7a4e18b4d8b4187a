// The embedded sandbox's auto-review: whether it reviews submitted releases by itself, and after
// how long. From the environment (RELDIST_SANDBOX_AUTO_REVIEW, RELDIST_SANDBOX_REVIEW_DELAY), else
// the settings `sandbox.auto_review` and `sandbox.review_delay`; `reldist serve` takes flags.
import { UsageError } from '../errors.js';
import { parseDuration } from '../shared/duration.js';

export const AUTO_REVIEW_OUTCOMES = ['approve', 'reject', 'live'] as const;
export type AutoReviewOutcome = (typeof AUTO_REVIEW_OUTCOMES)[number];

/** The longest review delay accepted: a day. */
export const MAX_REVIEW_DELAY_MS = 24 * 3_600_000;

export function parseOutcome(value: string, what: string): AutoReviewOutcome {
  const v = value.trim().toLowerCase();
  const found = AUTO_REVIEW_OUTCOMES.find((o) => o === v);
  if (!found) throw new UsageError(`${what}: expected one of ${AUTO_REVIEW_OUTCOMES.join(', ')}, got "${value}"`);
  return found;
}

export function parseReviewDelay(value: string, what: string): number {
  return parseDuration(value, what, { maxMs: MAX_REVIEW_DELAY_MS });
}

/** Auto-review from env > settings; undefined when off. A delay alone (no outcome) is an error naming where it came from. */
export function autoReviewSetting(
  env: Readonly<Record<string, string | undefined>>,
  settings: Readonly<Record<string, string>> | undefined,
): { outcome: AutoReviewOutcome; delayMs: number } | undefined {
  const pick = (envName: string, key: string) =>
    env[envName] !== undefined && env[envName] !== ''
      ? { value: env[envName]!, what: envName }
      : settings?.[key] !== undefined
        ? { value: settings[key]!, what: key }
        : undefined;
  const outcome = pick('RELDIST_SANDBOX_AUTO_REVIEW', 'sandbox.auto_review');
  const delay = pick('RELDIST_SANDBOX_REVIEW_DELAY', 'sandbox.review_delay');
  if (!outcome) {
    if (delay) throw new UsageError(`${delay.what}: a review delay needs an outcome too (RELDIST_SANDBOX_AUTO_REVIEW or sandbox.auto_review)`);
    return undefined;
  }
  return { outcome: parseOutcome(outcome.value, outcome.what), delayMs: delay ? parseReviewDelay(delay.value, delay.what) : 0 };
}
