import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArtistLink, resolveArtistLink } from '../../src/server/artists/resolve.js';
import { SeededArtistDirectory } from '../../src/server/artists/seeded.js';
import type { ArtistPlatform } from '../../src/server/artists/platforms.js';

const A = '4Z8W4fKeB5YxbusRsdQVPb';
const B = 'UCq-Fj5jknLsUf-MWSy4_brA';
const C = '1234567890';

const ok = (input: string, platform?: ArtistPlatform) => {
  const r = parseArtistLink(input, platform);
  if (!r.ok) throw new Error(`expected ${input} to parse, got: ${r.message}`);
  return r.ref;
};
const refused = (input: string, platform?: ArtistPlatform) => {
  const r = parseArtistLink(input, platform);
  if (r.ok) throw new Error(`expected ${input} to be refused, got ${JSON.stringify(r.ref)}`);
  return r;
};

describe('parseArtistLink: what people paste', () => {
  it.each([
    // streaming service A
    [A, 'streaming_a', A],
    [`streaming-a:artist:${A}`, 'streaming_a', A],
    [`STREAMING-A:artist:${A}`, 'streaming_a', A],
    [`https://open.streaming-a.example/artist/${A}`, 'streaming_a', A],
    [`http://open.streaming-a.example/artist/${A}`, 'streaming_a', A],
    [`open.streaming-a.example/artist/${A}`, 'streaming_a', A],
    [`streaming-a.example/artist/${A}/`, 'streaming_a', A],
    [`https://www.streaming-a.example/artist/${A}?si=q1w2e3r4t5y6`, 'streaming_a', A],
    [`https://open.streaming-a.example/intl-de/artist/${A}?si=abc&nd=1#top`, 'streaming_a', A],
    [`https://open.streaming-a.example/intl-pt-br/artist/${A}`, 'streaming_a', A],
    [`https://OPEN.Streaming-A.example/artist/${A}`, 'streaming_a', A],
    [`https://open.streaming-a.example/embed/artist/${A}`, 'streaming_a', A],
    [`https://open.streaming-a.example/artist/${A}/discography/all`, 'streaming_a', A],
    [`  <https://open.streaming-a.example/artist/${A}>  `, 'streaming_a', A],
    [`"https://open.streaming-a.example/artist/${A}"`, 'streaming_a', A],
    [`//open.streaming-a.example/artist/${A}`, 'streaming_a', A],
    // video service B
    [B, 'video_b', B],
    [`https://video-b.example/channel/${B}`, 'video_b', B],
    [`https://www.video-b.example/channel/${B}/videos`, 'video_b', B],
    [`m.video-b.example/channel/${B}?view_as=subscriber`, 'video_b', B],
    [`https://music.video-b.example/channel/${B}`, 'video_b', B],
    [`https://music.video-b.example/browse/${B}`, 'video_b', B],
    [`video-b:channel:${B}`, 'video_b', B],
    // store C
    [C, 'store_c', C],
    [`id${C}`, 'store_c', C],
    [`https://music.store-c.example/us/artist/lena-voss/${C}`, 'store_c', C],
    [`https://music.store-c.example/gb/artist/lena-voss/${C}?l=de`, 'store_c', C],
    [`https://music.store-c.example/artist/lena-voss/${C}`, 'store_c', C],
    [`https://music.store-c.example/us/artist/${C}`, 'store_c', C],
    [`https://itunes.store-c.example/us/artist/lena-voss/id${C}?uo=4`, 'store_c', C],
    [`store-c.example/de/artist/%C3%A5sa-lindqvist/${C}/`, 'store_c', C],
    [`store-c:artist:${C}`, 'store_c', C],
  ])('%s → %s %s', (input, platform, id) => {
    expect(ok(input)).toEqual({ platform, id });
    expect(ok(input, platform as ArtistPlatform)).toEqual({ platform, id });
  });

  it.each([
    ['@lenavoss', 'lenavoss'],
    ['https://video-b.example/@lenavoss', 'lenavoss'],
    ['video-b.example/@Lena.Voss-Music/featured', 'Lena.Voss-Music'],
    ['https://www.video-b.example/@lenavoss?sub_confirmation=1', 'lenavoss'],
  ])('handle %s', (input, handle) => {
    expect(ok(input)).toEqual({ platform: 'video_b', handle });
  });

  it.each([
    [`https://open.streaming-a.example/track/${A}`, 'track'],
    [`https://open.streaming-a.example/intl-fr/album/${A}?si=x`, 'album'],
    [`https://open.streaming-a.example/playlist/37i9dQZF1DXcBWIGoYBM5M`, 'playlist'],
    [`https://open.streaming-a.example/episode/${A}`, 'podcast episode'],
    [`https://open.streaming-a.example/user/someone`, 'user profile'],
    [`streaming-a:track:${A}`, 'track'],
    [`streaming-a:user:someone:playlist:${A}`, 'playlist'],
    [`https://video-b.example/watch?v=dQw4w9WgXcQ`, 'video'],
    [`https://video-b.example/shorts/abcdefghijk`, 'short video'],
    [`https://video-b.example/playlist?list=PL123`, 'playlist'],
    [`https://music.video-b.example/browse/MPREb_abcdef`, 'album'],
    [`https://music.store-c.example/us/album/northern-sky/1440833098`, 'album'],
    [`https://music.store-c.example/us/album/northern-sky/1440833098?i=1440833100`, 'track'],
    [`https://music.store-c.example/us/song/northern-sky/1440833100`, 'track'],
    [`https://music.store-c.example/us/playlist/pl.u-abc`, 'playlist'],
    [`https://music.store-c.example/us/music-video/northern-sky/1440833101`, 'music video'],
  ])('refuses %s as a link to a %s', (input, kind) => {
    const r = refused(input);
    expect(r.reason).toBe('not_artist');
    expect(r.message).toContain(`points to a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind}`);
    if (r.reason === 'not_artist') expect(r.points_to).toBe(kind);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['Lena Voss', /spaces/],
    ['https://example.com/artist/x', /example\.com is not a host/],
    [`ftp://open.streaming-a.example/artist/${A}`, /http\(s\)/],
    ['https://open.streaming-a.example/', /not an artist profile/],
    ['https://open.streaming-a.example/artist/', /names no artist/],
    ['https://open.streaming-a.example/artist/short', /not a streaming service A artist id/],
    ['https://video-b.example/c/LenaVoss', /legacy/],
    ['https://video-b.example/channel/UCshort', /not a video service B channel id/],
    ['https://music.store-c.example/us/artist/lena-voss/abc', /not a store C artist id/],
    ['12', /not a link or id/],
  ])('rejects %j', (input, message) => {
    const r = refused(input);
    expect(r.reason).toBe('unrecognized');
    expect(r.message).toMatch(message);
  });

  it('refuses a link of another platform than the one asked for, naming both', () => {
    const r = refused(`https://video-b.example/channel/${B}`, 'streaming_a');
    expect(r.reason).toBe('wrong_platform');
    expect(r.message).toMatch(/video service B link, not a streaming service A one/);
    expect(refused(`streaming-a:artist:${A}`, 'store_c').reason).toBe('wrong_platform');
  });

  it('reads a bare id only in the form of the platform asked for', () => {
    expect(refused(A, 'store_c').reason).toBe('unrecognized');
    expect(refused(C, 'streaming_a').message).toMatch(/neither a streaming service A link nor an artist id/);
    expect(refused('@lenavoss', 'streaming_a').reason).toBe('unrecognized');
  });
});

// Property: decorating a valid artist link the ways browsers and share buttons do never changes
// the id it resolves to.
const base62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
const streamingId = fc.array(base62, { minLength: 22, maxLength: 22 }).map((c) => c.join(''));
const channelId = fc
  .array(fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_'), { minLength: 22, maxLength: 22 })
  .map((c) => `UC${c.join('')}`);
const storeId = fc.integer({ min: 100_000, max: 999_999_999_999 }).map(String);
const queryString = fc.option(
  fc
    .dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/), { maxKeys: 3 })
    .map((d) => `?${new URLSearchParams(d).toString()}`),
  { nil: '' },
);
const fragment = fc.option(fc.stringMatching(/^#[a-z0-9-]{0,10}$/), { nil: '' });
const scheme = fc.constantFrom('https://', 'http://', '', '//');
const slash = fc.constantFrom('', '/');

describe('parseArtistLink: decorated links resolve to the same id (fast-check)', () => {
  it('streaming service A', () => {
    fc.assert(
      fc.property(
        streamingId,
        scheme,
        fc.constantFrom('open.', 'www.', '', 'play.'),
        fc.option(fc.stringMatching(/^intl-[a-z]{2}(-[a-z]{2})?$/), { nil: undefined }),
        slash,
        queryString,
        fragment,
        (id, s, sub, locale, sl, q, f) => {
          const link = `${s}${sub}streaming-a.example/${locale ? `${locale}/` : ''}artist/${id}${sl}${q}${f}`;
          expect(parseArtistLink(link)).toEqual({ ok: true, ref: { platform: 'streaming_a', id } });
          expect(parseArtistLink(link, 'streaming_a')).toEqual({ ok: true, ref: { platform: 'streaming_a', id } });
        },
      ),
    );
  });

  it('video service B', () => {
    fc.assert(
      fc.property(
        channelId,
        scheme,
        fc.constantFrom('', 'www.', 'm.', 'music.'),
        fc.constantFrom('', '/videos', '/featured', '/about'),
        slash,
        queryString,
        fragment,
        (id, s, sub, tab, sl, q, f) => {
          const link = `${s}${sub}video-b.example/channel/${id}${tab}${sl}${q}${f}`;
          expect(parseArtistLink(link, 'video_b')).toEqual({ ok: true, ref: { platform: 'video_b', id } });
        },
      ),
    );
  });

  it('store C', () => {
    fc.assert(
      fc.property(
        storeId,
        scheme,
        fc.constantFrom('music.', '', 'www.', 'itunes.'),
        fc.option(fc.stringMatching(/^[a-z]{2}$/), { nil: undefined }),
        fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), { nil: undefined }),
        fc.boolean(),
        slash,
        queryString,
        fragment,
        (id, s, sub, cc, slug, idPrefix, sl, q, f) => {
          const link = `${s}${sub}store-c.example/${cc ? `${cc}/` : ''}artist/${slug ? `${slug}/` : ''}${idPrefix ? 'id' : ''}${id}${sl}${q}${f}`;
          expect(parseArtistLink(link, 'store_c')).toEqual({ ok: true, ref: { platform: 'store_c', id } });
        },
      ),
    );
  });

  it('never throws, whatever is pasted', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.webUrl(), fc.string({ unit: 'binary' })),
        fc.constantFrom(undefined, 'streaming_a', 'video_b', 'store_c'),
        (input, p) => {
          const r = parseArtistLink(input, p as ArtistPlatform | undefined);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('resolveArtistLink against the seeded directory', () => {
  const dir = new SeededArtistDirectory();
  const lena = (p: ArtistPlatform) => dir.findByName(p, 'Lena Voss')[0]!;

  it('resolves every canonical url the directory hands out to its own profile', async () => {
    for (const p of ['streaming_a', 'video_b', 'store_c'] as const) {
      for (const profile of dir.all(p).slice(0, 40)) {
        expect(await resolveArtistLink(dir, profile.url, p)).toEqual({ ok: true, result: profile });
      }
    }
  });

  it('resolves a channel by @handle, case-insensitively', async () => {
    const channel = lena('video_b');
    const handle = dir.handleOf(channel.id)!;
    expect(handle).toBe('@lenavoss');
    expect(await resolveArtistLink(dir, `https://video-b.example/${handle.toUpperCase()}`)).toEqual({ ok: true, result: channel });
  });

  it('says not found for a well-formed id the platform does not have', async () => {
    const r = await resolveArtistLink(dir, `https://open.streaming-a.example/artist/${'0'.repeat(22)}`);
    expect(r).toMatchObject({ ok: false, reason: 'not_found' });
    expect(r.ok ? '' : r.message).toMatch(/streaming service A has no artist 0{22}/);
  });
});
