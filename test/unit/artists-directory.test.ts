import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLimit } from '../../src/server/artists/directory.js';
import { ARTIST_PLATFORMS } from '../../src/server/artists/platforms.js';
import { foldName, matchRank, MatchRank } from '../../src/server/artists/search.js';
import { ANCHOR_ARTISTS, SeededArtistDirectory } from '../../src/server/artists/seeded.js';

const dir = new SeededArtistDirectory();

describe('SeededArtistDirectory: the profiles', () => {
  it('is deterministic for a seed and different for another seed', () => {
    const again = new SeededArtistDirectory();
    const other = new SeededArtistDirectory({ seed: 'another-seed' });
    for (const p of ARTIST_PLATFORMS) {
      expect(again.all(p)).toEqual(dir.all(p));
      expect(other.all(p).map((x) => x.id)).not.toEqual(dir.all(p).map((x) => x.id));
    }
  });

  it('holds a few hundred profiles per platform, each id unique and in the platform style', () => {
    const forms = { streaming_a: /^[A-Za-z0-9]{22}$/, video_b: /^UC[A-Za-z0-9_-]{22}$/, store_c: /^[1-9]\d{8,9}$/ };
    for (const p of ARTIST_PLATFORMS) {
      const all = dir.all(p);
      expect(all.length).toBeGreaterThanOrEqual(200);
      expect(all.length).toBeLessThanOrEqual(600);
      expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
      for (const x of all) {
        expect(x.id).toMatch(forms[p]);
        expect(x.platform).toBe(p);
        expect(x.url).toMatch(/^https:\/\/[a-z.-]+\.example\//);
        expect(x.url).toContain(x.id);
        expect(x.image_url === null || x.image_url.startsWith('https://')).toBe(true);
        expect(Number.isInteger(x.followers)).toBe(true);
        expect(Object.keys(x).sort()).toEqual(['followers', 'handle', 'id', 'image_url', 'name', 'platform', 'url']);
      }
    }
  });

  it('gives every channel a unique @handle', () => {
    const handles = dir.all('video_b').map((c) => dir.handleOf(c.id)!);
    expect(handles.every((h) => /^@[a-z0-9]{3,30}$/.test(h))).toBe(true);
    expect(new Set(handles).size).toBe(handles.length);
  });

  it('has the same artist on all three platforms under different ids, and namesakes on one', () => {
    const lena = ARTIST_PLATFORMS.map((p) => dir.findByName(p, 'Lena Voss'));
    expect(lena.map((l) => l.length)).toEqual([1, 1, 1]);
    expect(new Set(lena.map((l) => l[0]!.id)).size).toBe(3);
    expect(dir.findByName('streaming_a', 'Luna').length).toBeGreaterThanOrEqual(2);
    for (const anchor of ANCHOR_ARTISTS) {
      for (const p of anchor.platforms) expect(dir.findByName(p, anchor.name).length).toBeGreaterThan(0);
    }
  });

  it('has names with accents, band patterns and other scripts', () => {
    const names = dir.all('streaming_a').map((x) => x.name);
    expect(names.some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
    expect(names.some((n) => /^The \w+ \w+$/.test(n))).toBe(true);
    expect(names.some((n) => !/\p{Script=Latin}/u.test(n))).toBe(true);
  });
});

describe('foldName and matchRank', () => {
  it.each([
    ['Åsa Lindqvist', 'asa lindqvist'],
    ['Søren Ó Briain', 'soren o briain'],
    ['NOVÆ', 'novae'],
    ['Łukasz Kowalczyk', 'lukasz kowalczyk'],
    ['Hip-Hop/Rap', 'hip hop rap'],
    ["Côte d'Ivoire", 'cote divoire'],
    ['  The   Paper   Lanterns ', 'the paper lanterns'],
    ['小林ゆい', '小林ゆい'],
  ])('%s → %s', (input, folded) => expect(foldName(input)).toBe(folded));

  it('ranks exact > prefix > word prefix > substring', () => {
    expect(matchRank('luna', 'luna')).toBe(MatchRank.Exact);
    expect(matchRank('lunar tide', 'luna')).toBe(MatchRank.Prefix);
    expect(matchRank('the lunar horses', 'luna')).toBe(MatchRank.WordPrefix);
    expect(matchRank('dj kaluna', 'luna')).toBe(MatchRank.Substring);
    expect(matchRank('the paper lanterns', 'paperlanterns')).toBe(MatchRank.Substring);
    expect(matchRank('nora sato', 'asa')).toBeUndefined();
    expect(matchRank('glass harbor', '')).toBeUndefined();
  });
});

describe('SeededArtistDirectory.search', () => {
  it('is case- and accent-insensitive', async () => {
    for (const q of ['asa lindqvist', 'ÅSA LINDQVIST', 'Asa Lindqvist', 'åsa']) {
      const [first] = await dir.search('streaming_a', q, 5);
      expect(first?.name).toBe('Åsa Lindqvist');
    }
  });

  it('orders results by match rank, then followers', async () => {
    const results = await dir.search('streaming_a', 'luna', 50);
    const ranks = results.map((r) => matchRank(foldName(r.name), 'luna')!);
    expect(ranks[0]).toBe(MatchRank.Exact);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    for (let i = 1; i < results.length; i++) {
      if (ranks[i] === ranks[i - 1]) expect(results[i]!.followers!).toBeLessThanOrEqual(results[i - 1]!.followers!);
    }
  });

  it('bounds the limit to 1..50', async () => {
    expect(await dir.search('store_c', 'a', 500)).toHaveLength(50);
    expect(await dir.search('store_c', 'a', 0)).toHaveLength(1);
    expect(await dir.search('store_c', 'a', 7)).toHaveLength(7);
    expect(boundedLimit(undefined)).toBe(10);
    expect(boundedLimit(Number.NaN)).toBe(10);
  });

  it('finds nothing for a name nobody has, and nothing for punctuation only', async () => {
    expect(await dir.search('video_b', 'zzqqxx', 10)).toEqual([]);
    expect(await dir.search('video_b', '!!!', 10)).toEqual([]);
  });

  it('every result matches the query (property)', async () => {
    const names = dir.all('streaming_a').map((x) => x.name);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.nat(), fc.nat(), async (name, a, b) => {
        const folded = foldName(name);
        const start = a % Math.max(1, folded.length);
        const q = folded.slice(start, start + 1 + (b % 8));
        const results = await dir.search('streaming_a', q, 50);
        for (const r of results) expect(matchRank(foldName(r.name), foldName(q))).toBeDefined();
        if (foldName(q).length > 0 && results.length < 50) expect(results.map((r) => r.name)).toContain(name);
      }),
      { numRuns: 200 },
    );
  });
});
