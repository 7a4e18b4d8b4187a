// The document's pattern of each link field is what the resolver takes: every string the pattern
// allows parses to an artist reference of that platform (a pattern looser than the resolver would
// promise links it refuses), and the documented examples match it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { artistLinkExamples, artistLinkPattern } from '../../src/contract/artist-links.js';
import { artistPlatformIds } from '../../src/contract/wire-values.js';
import { parseArtistLink } from '../../src/server/artists/resolve.js';

const platforms = [...artistPlatformIds];

describe('artist link patterns', () => {
  it.each(platforms)('every string the %s pattern allows parses as one of its artists', (platform) => {
    const pattern = new RegExp(artistLinkPattern([platform]));
    fc.assert(
      fc.property(fc.stringMatching(pattern), (link) => {
        const parsed = parseArtistLink(link, platform);
        expect(parsed, link).toMatchObject({ ok: true, ref: { platform } });
      }),
      { numRuns: 1000 },
    );
  });

  it('the all-platform pattern: each string parses on the platform it names, detected', () => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(artistLinkPattern(platforms))), (link) => {
        expect(parseArtistLink(link), link).toMatchObject({ ok: true });
      }),
      { numRuns: 1000 },
    );
  });

  it.each(platforms)('the examples of %s match its pattern and parse', (platform) => {
    for (const example of artistLinkExamples[platform]) {
      expect(new RegExp(artistLinkPattern([platform])).test(example), example).toBe(true);
      expect(parseArtistLink(example, platform), example).toMatchObject({ ok: true });
    }
  });

  it('refuses by pattern what the resolver refuses: another kind of link, another platform, spaces inside', () => {
    const pattern = new RegExp(artistLinkPattern(['streaming_a']));
    for (const link of [
      'https://open.streaming-a.example/track/4Z8W4fKeB5YxbusRsdQVPb',
      'https://video-b.example/@ninavale',
      'https://open.streaming-a.example/artist/4Z8W4fKeB5 YxbusRsdQVPb',
      ' ',
    ]) {
      expect(pattern.test(link), link).toBe(false);
    }
  });
});
