// Turns what a person pastes into a reference to one artist profile: a bare id, a platform URI,
// or a web link in any of the shapes browsers and share buttons produce. Links to anything that
// is not an artist (a track, an album, a playlist, a video…) are refused by name, because
// resolving them to "the artist of that track" guesses, and a wrong guess puts a release on a
// stranger's artist page.
import { artistLinkForms, videoHandle } from '../../contract/artist-links.js';
import type { ArtistDirectory, ArtistPlatformResult } from './directory.js';
import { ARTIST_PLATFORMS, PLATFORM_INFO, platformForHost, platformForUriScheme, type ArtistPlatform } from './platforms.js';

export type ArtistRef = { platform: ArtistPlatform; id: string; handle?: undefined } | { platform: 'video_b'; handle: string; id?: undefined };

export type ParseOutcome =
  | { ok: true; ref: ArtistRef }
  | { ok: false; reason: 'not_artist'; platform: ArtistPlatform; points_to: string; message: string }
  | { ok: false; reason: 'wrong_platform'; platform: ArtistPlatform; message: string }
  | { ok: false; reason: 'unrecognized'; message: string };

// The id and handle forms are the contract's (artist-links.ts), which the document states too.
const ID_FORMS = Object.fromEntries(
  ARTIST_PLATFORMS.map((p) => [p, { pattern: new RegExp(`^${artistLinkForms[p].id}$`), description: artistLinkForms[p].idWords }]),
) as Record<ArtistPlatform, { pattern: RegExp; description: string }>;
const HANDLE = new RegExp(`^@?(${videoHandle})$`);

const name = (p: ArtistPlatform) => PLATFORM_INFO[p].prose;
const asArtistHint = (p: ArtistPlatform) =>
  p === 'video_b'
    ? `paste the channel's link (${PLATFORM_INFO.video_b.webHost}/@handle or /channel/UC…)`
    : `paste the link of the artist's profile on ${name(p)}`;

function notArtist(platform: ArtistPlatform, pointsTo: string): ParseOutcome {
  const article = /^[aeiou]/.test(pointsTo) ? 'an' : 'a';
  return {
    ok: false,
    reason: 'not_artist',
    platform,
    points_to: pointsTo,
    message: `this ${name(platform)} link points to ${article} ${pointsTo}, not ${platform === 'video_b' ? 'a channel' : 'an artist'}: ${asArtistHint(platform)}`,
  };
}

const unrecognized = (message: string): ParseOutcome => ({ ok: false, reason: 'unrecognized', message });

function badId(platform: ArtistPlatform, value: string): ParseOutcome {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return unrecognized(`"${shown}" is not a ${name(platform)} ${platform === 'video_b' ? 'channel' : 'artist'} id (${ID_FORMS[platform].description})`);
}

function idRef(platform: ArtistPlatform, value: string | undefined): ParseOutcome {
  if (value === undefined)
    return unrecognized(`this ${name(platform)} link names no ${platform === 'video_b' ? 'channel' : 'artist'}: ${asArtistHint(platform)}`);
  return ID_FORMS[platform].pattern.test(value) ? { ok: true, ref: { platform, id: value } } : badId(platform, value);
}

function handleRef(value: string): ParseOutcome {
  const m = HANDLE.exec(value);
  return m ? { ok: true, ref: { platform: 'video_b', handle: m[1]! } } : unrecognized(`"${value}" is not a valid ${name('video_b')} handle`);
}

/** A bare id or handle: which platform's form it has (forms do not overlap). */
function bareRef(value: string, platform?: ArtistPlatform): ParseOutcome | undefined {
  const candidates = platform ? [platform] : ARTIST_PLATFORMS;
  for (const p of candidates) {
    if (p === 'video_b' && value.startsWith('@')) return handleRef(value);
    if (p === 'store_c' && /^id/i.test(value) && ID_FORMS.store_c.pattern.test(value.slice(2))) return idRef(p, value.slice(2));
    if (ID_FORMS[p].pattern.test(value)) return { ok: true, ref: { platform: p, id: value } };
  }
  return undefined;
}

// What each platform's non-artist paths point to, as the refusal names them.
const STREAMING_A_KINDS: Record<string, string> = {
  track: 'track',
  album: 'album',
  playlist: 'playlist',
  episode: 'podcast episode',
  show: 'podcast',
  user: 'user profile',
  genre: 'genre page',
  search: 'search page',
  concert: 'concert',
  audiobook: 'audiobook',
  prerelease: 'pre-release album',
  collection: 'personal library',
};
const STORE_C_KINDS: Record<string, string> = {
  song: 'track',
  album: 'album',
  playlist: 'playlist',
  'music-video': 'music video',
  station: 'radio station',
  curator: 'curator page',
  search: 'search page',
  podcast: 'podcast',
  room: 'editorial page',
};
const VIDEO_B_KINDS: Record<string, string> = {
  watch: 'video',
  shorts: 'short video',
  live: 'live stream',
  embed: 'video',
  playlist: 'playlist',
  results: 'search page',
  feed: 'feed',
  post: 'community post',
  hashtag: 'hashtag page',
  clip: 'clip',
};

function streamingAPath(segments: string[]): ParseOutcome {
  let s = segments;
  if (s[0] && /^intl-[a-z]{2}(-[a-z]{2})?$/i.test(s[0])) s = s.slice(1);
  if (s[0]?.toLowerCase() === 'embed') s = s.slice(1);
  const head = s[0]?.toLowerCase();
  if (head === 'artist') return idRef('streaming_a', s[1]);
  if (head !== undefined && head in STREAMING_A_KINDS) return notArtist('streaming_a', STREAMING_A_KINDS[head]!);
  return unrecognized(`this ${name('streaming_a')} link is not an artist profile (expected …/artist/<id>): ${asArtistHint('streaming_a')}`);
}

function videoBPath(segments: string[], query: URLSearchParams): ParseOutcome {
  const head = segments[0];
  if (head === undefined) return unrecognized(`this ${name('video_b')} link names no channel: ${asArtistHint('video_b')}`);
  if (head.startsWith('@')) return handleRef(head);
  const lower = head.toLowerCase();
  if (lower === 'channel') return idRef('video_b', segments[1]);
  // The music subdomain addresses channels as /browse/UC… and albums as /browse/MPRE….
  if (lower === 'browse') return segments[1]?.startsWith('UC') ? idRef('video_b', segments[1]) : notArtist('video_b', 'album');
  if (lower === 'c' || lower === 'user') {
    return unrecognized(`legacy ${name('video_b')} /${lower}/ links are not supported: ${asArtistHint('video_b')}`);
  }
  if (lower === 'watch' && query.has('list') && !query.has('v')) return notArtist('video_b', 'playlist');
  if (lower in VIDEO_B_KINDS) return notArtist('video_b', VIDEO_B_KINDS[lower]!);
  return unrecognized(`this ${name('video_b')} link is not a channel: ${asArtistHint('video_b')}`);
}

function storeCPath(segments: string[], query: URLSearchParams): ParseOutcome {
  let s = segments;
  if (s[0] && /^[a-z]{2}$/i.test(s[0])) s = s.slice(1);
  const head = s[0]?.toLowerCase();
  if (head === 'artist') {
    // /artist/<slug>/<id>, /artist/<id>, and the older /artist/<slug>/id<id>.
    const last = s.length >= 3 ? s[2] : s[1];
    if (last === undefined) return idRef('store_c', undefined);
    return idRef('store_c', /^id\d+$/i.test(last) ? last.slice(2) : last);
  }
  // An album link with ?i=<track id> is how the store shares a single song.
  if (head === 'album' && query.has('i')) return notArtist('store_c', 'track');
  if (head !== undefined && head in STORE_C_KINDS) return notArtist('store_c', STORE_C_KINDS[head]!);
  return unrecognized(`this ${name('store_c')} link is not an artist profile (expected …/artist/<name>/<id>): ${asArtistHint('store_c')}`);
}

function uriRef(platform: ArtistPlatform, parts: string[]): ParseOutcome {
  const [kind, value, ...rest] = parts;
  const artistKind = platform === 'video_b' ? ['channel', 'artist'] : ['artist'];
  if (kind !== undefined && artistKind.includes(kind.toLowerCase()) && rest.length === 0) return idRef(platform, value);
  const kinds = platform === 'streaming_a' ? STREAMING_A_KINDS : platform === 'store_c' ? STORE_C_KINDS : VIDEO_B_KINDS;
  // Kinds sit at even positions; the last one wins: streaming-a:user:<name>:playlist:<id> is a
  // playlist, whoever owns it.
  const named = parts
    .map((p) => p.toLowerCase())
    .filter((p, i) => i % 2 === 0 && (p in kinds || p === 'video'))
    .at(-1);
  if (named !== undefined) return notArtist(platform, kinds[named] ?? named);
  return unrecognized(`"${parts.join(':')}" is not a ${name(platform)} artist URI (expected ${PLATFORM_INFO[platform].uriScheme}:${artistKind[0]}:<id>)`);
}

function stripPasteNoise(input: string): string {
  let s = input.trim();
  // Mail clients and chat apps wrap links in angle brackets or quotes.
  for (const [open, close] of [
    ['<', '>'],
    ['"', '"'],
    ["'", "'"],
    ['(', ')'],
  ] as const) {
    if (s.length >= 2 && s.startsWith(open) && s.endsWith(close)) s = s.slice(1, -1).trim();
  }
  return s;
}

/**
 * Parse a pasted artist reference. With `platform`, the input must belong to that platform;
 * without it, the platform is detected from the host, the URI scheme or the shape of the id.
 */
export function parseArtistLink(input: string, platform?: ArtistPlatform): ParseOutcome {
  const text = stripPasteNoise(input);
  if (text === '') return unrecognized('the link is empty');
  if (/\s/.test(text)) return unrecognized('the link contains spaces: paste a single link or id');

  const uri = /^([a-z][a-z0-9-]*):(?!\/\/)(.+)$/i.exec(text);
  const uriPlatform = uri ? platformForUriScheme(uri[1]!) : undefined;
  if (uri && uriPlatform) {
    if (platform && uriPlatform !== platform) return wrongPlatform(uriPlatform, platform);
    return uriRef(uriPlatform, uri[2]!.split(':'));
  }

  const bare = bareRef(text, platform);
  if (bare) return bare;

  let href = text;
  if (href.startsWith('//')) href = `https:${href}`;
  else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(href)) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+\.?(:\d+)?([/?#]|$)/i.test(href)) {
      return unrecognized(
        platform
          ? `"${text.slice(0, 60)}" is neither a ${name(platform)} link nor ${platform === 'video_b' ? 'a channel id or @handle' : 'an artist id'}`
          : `"${text.slice(0, 60)}" is not a link or id of any supported platform`,
      );
    }
    href = `https://${href}`;
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return unrecognized(`"${text.slice(0, 60)}" is not a valid link`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return unrecognized(`links must be http(s), not ${url.protocol}`);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const linkPlatform = platformForHost(host);
  if (!linkPlatform) {
    const expected = (platform ? [platform] : ARTIST_PLATFORMS).map((p) => PLATFORM_INFO[p].webHost).join(', ');
    return unrecognized(`${host} is not a host of ${platform ? name(platform) : 'any supported platform'} (expected ${expected})`);
  }
  if (platform && linkPlatform !== platform) return wrongPlatform(linkPlatform, platform);

  let segments: string[];
  try {
    segments = url.pathname
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return unrecognized(`"${text.slice(0, 60)}" has a malformed path`);
  }
  if (linkPlatform === 'streaming_a') return streamingAPath(segments);
  if (linkPlatform === 'video_b') return videoBPath(segments, url.searchParams);
  return storeCPath(segments, url.searchParams);
}

function wrongPlatform(found: ArtistPlatform, wanted: ArtistPlatform): ParseOutcome {
  return {
    ok: false,
    reason: 'wrong_platform',
    platform: found,
    message: `this is a ${name(found)} link, not a ${name(wanted)} one: pass platform ${found} or a ${name(wanted)} link`,
  };
}

export type ResolveOutcome =
  | { ok: true; result: ArtistPlatformResult }
  | { ok: false; reason: 'not_found'; message: string }
  | Extract<ParseOutcome, { ok: false }>;

/** Parse the input, then fetch the profile it names from the directory. */
export async function resolveArtistLink(directory: ArtistDirectory, input: string, platform?: ArtistPlatform): Promise<ResolveOutcome> {
  const parsed = parseArtistLink(input, platform);
  if (!parsed.ok) return parsed;
  const { ref } = parsed;
  const result = ref.handle !== undefined ? await directory.getByHandle(ref.platform, ref.handle) : await directory.get(ref.platform, ref.id);
  if (result) return { ok: true, result };
  const what = ref.handle !== undefined ? `channel @${ref.handle}` : `${ref.platform === 'video_b' ? 'channel' : 'artist'} ${ref.id}`;
  return { ok: false, reason: 'not_found', message: `${name(ref.platform)} has no ${what}` };
}
