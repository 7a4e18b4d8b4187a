// `--only NLR-0001,NLR-00*`: the releases of the files whose catalog number is named, or matches
// a glob (* any characters, ? one), compared in the catalog key's form (trimmed, any case), as
// apply finds releases. A name or pattern that selects nothing is an error: a typo must not pass
// for "nothing to do".
import { UsageError } from '../errors.js';
import { normaliseCatalogNumber } from './catalog-key.js';

export interface OnlySelector {
  /** Each entry as given, and how it matches a catalog key. */
  entries: { given: string; matches(key: string): boolean }[];
}

export function parseOnly(text: string): OnlySelector {
  const given = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (given.length === 0) throw new UsageError('--only: expected catalog numbers or patterns, comma-separated, e.g. NLR-0001,NLR-00*');
  return {
    entries: given.map((g) => {
      const key = normaliseCatalogNumber(g);
      if (!/[*?]/.test(key)) return { given: g, matches: (k: string) => k === key };
      const re = new RegExp(
        `^${key
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        's',
      );
      return { given: g, matches: (k: string) => re.test(k) };
    }),
  };
}

/** The items the selector names, in their order; a usage error naming every entry that selects none. */
export function selectOnly<T extends { catalogNumber: string }>(items: readonly T[], only: OnlySelector): T[] {
  const keys = items.map((i) => normaliseCatalogNumber(i.catalogNumber));
  const unmatched = only.entries.filter((e) => !keys.some((k) => e.matches(k))).map((e) => e.given);
  if (unmatched.length > 0) {
    throw new UsageError(
      `--only: no release file has a catalog number ${unmatched.length === 1 ? 'matching' : 'matching any of'} ${unmatched.join(', ')}`,
      'check the spelling; --only takes catalog numbers and patterns (* and ?), comma-separated',
    );
  }
  return items.filter((_, i) => only.entries.some((e) => e.matches(keys[i]!)));
}
