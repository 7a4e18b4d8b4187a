// The non-secret settings of `reldist config`. Tokens are not settings: see `reldist auth`.
import { UsageError } from '../errors.js';
import { AUTO_REVIEW_OUTCOMES, parseOutcome, parseReviewDelay } from './auto-review.js';

export interface SettingSpec {
  description: string;
  /** Returns the normalised value or throws a UsageError naming the key. */
  parse(value: string): string;
  /** Stored per profile rather than globally. */
  perProfile?: boolean;
}

export const settings: Record<string, SettingSpec> = {
  profile: {
    description: 'the profile used when neither --profile nor RELDIST_PROFILE is given',
    parse: (v) => {
      if (!/^[\w.-]{1,64}$/.test(v)) throw new UsageError(`profile: "${v}" is not a profile name (letters, digits, . _ -)`);
      return v;
    },
  },
  base_url: {
    description: "the service's base URL for the active profile",
    perProfile: true,
    parse: (v) => normaliseBaseUrl(v, 'base_url'),
  },
  timeout: {
    description: 'seconds to wait for a silent connection before giving up (default 30)',
    parse: (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 3600) throw new UsageError(`timeout: "${v}" is not a whole number of seconds between 1 and 3600`);
      return String(n);
    },
  },
  'sandbox.auto_review': {
    description: `the embedded sandbox reviews submitted releases by itself: ${AUTO_REVIEW_OUTCOMES.join(', ')} (env RELDIST_SANDBOX_AUTO_REVIEW)`,
    parse: (v) => parseOutcome(v, 'sandbox.auto_review'),
  },
  'sandbox.review_delay': {
    description: 'how long after submit that review comes, e.g. 2s (default 0s; env RELDIST_SANDBOX_REVIEW_DELAY)',
    parse: (v) => {
      parseReviewDelay(v, 'sandbox.review_delay');
      return v.trim().toLowerCase();
    },
  },
};

export function settingSpec(key: string): SettingSpec {
  const spec = settings[key];
  if (!spec) throw new UsageError(`unknown setting "${key}"`, `known settings: ${Object.keys(settings).join(', ')}`);
  return spec;
}

/** An http(s) URL without a trailing slash. */
export function normaliseBaseUrl(value: string, what = '--base-url'): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${what}: "${value}" is not a URL`, 'give a full URL such as https://api.example.com');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${what}: "${value}" must be an http or https URL`);
  if (u.username || u.password) throw new UsageError(`${what}: credentials do not belong in the URL`, 'use `reldist auth login` for the token');
  return u.href.replace(/\/+$/, '');
}
