// Name matching for the seeded directory: case- and accent-insensitive, ranked
// exact > prefix > word prefix > substring.

// Letters that Unicode does not decompose into base + accent, folded the way people type them.
const FOLD: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};

/** Lower-case, strip accents, fold special letters, collapse punctuation and spaces. */
export function foldName(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßłđðþıħ]/g, (c) => FOLD[c] ?? c)
    .replace(/[''`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export const MatchRank = { Exact: 0, Prefix: 1, WordPrefix: 2, Substring: 3 } as const;
export type MatchRank = (typeof MatchRank)[keyof typeof MatchRank];

/** How well a folded name matches a folded query; undefined when it does not match. */
export function matchRank(foldedName: string, foldedQuery: string): MatchRank | undefined {
  if (foldedQuery === '') return undefined;
  if (foldedName === foldedQuery) return MatchRank.Exact;
  if (foldedName.startsWith(foldedQuery)) return MatchRank.Prefix;
  if (foldedName.includes(` ${foldedQuery}`)) return MatchRank.WordPrefix;
  if (foldedName.includes(foldedQuery)) return MatchRank.Substring;
  // Spaces differ between how names are written and typed ("paperlanterns", "Lo Fi" / "lofi"):
  // compare without spaces, but only from the start of a word, so "asa" does not hit "Nora Sato".
  const tightQuery = foldedQuery.replaceAll(' ', '');
  if (tightQuery.length < 3) return undefined;
  const words = foldedName.split(' ');
  for (let i = 0; i < words.length; i++) {
    if (words.slice(i).join('').startsWith(tightQuery)) return MatchRank.Substring;
  }
  return undefined;
}

export interface Rankable {
  name: string;
  folded: string;
  followers: number;
  id: string;
}

/** Matches of `query` in `items`, best first: rank, then more followers, then name, then id. */
export function rankMatches<T extends Rankable>(items: readonly T[], query: string, limit: number): T[] {
  const q = foldName(query);
  const hits: { item: T; rank: MatchRank }[] = [];
  for (const item of items) {
    const rank = matchRank(item.folded, q);
    if (rank !== undefined) hits.push({ item, rank });
  }
  hits.sort(
    (a, b) =>
      a.rank - b.rank ||
      b.item.followers - a.item.followers ||
      (a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0) ||
      (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0),
  );
  return hits.slice(0, limit).map((h) => h.item);
}
