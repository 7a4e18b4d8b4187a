// The forms of an artist reference each platform's resolver takes: the hosts of its links, its
// URI scheme, the shape of its ids. Plain data, read by the service's resolver
// (src/server/artists) and by the document (each link field's pattern and examples), so that the
// document says what the resolver accepts. Case-insensitive parts (hosts, schemes, path words)
// are written lower-case in the patterns: the resolver takes any case, the pattern the usual one.
import type { artistPlatformIds } from './wire-values.js';

type Platform = (typeof artistPlatformIds)[number];

export interface ArtistLinkForms {
  /** Host of the canonical web links the directory hands out. */
  webHost: string;
  /** Every host a pasted link may carry (canonical first). */
  hosts: readonly string[];
  /** Scheme of the platform URI form (`streaming-a:artist:<id>`). */
  uriScheme: string;
  /** An artist (channel) id, as a regular expression's source without anchors. */
  id: string;
  /** The id in words, for refusals. */
  idWords: string;
}

export const artistLinkForms: Readonly<Record<Platform, ArtistLinkForms>> = {
  streaming_a: {
    webHost: 'open.streaming-a.example',
    hosts: ['open.streaming-a.example', 'streaming-a.example', 'www.streaming-a.example', 'play.streaming-a.example'],
    uriScheme: 'streaming-a',
    id: '[A-Za-z0-9]{22}',
    idWords: '22 letters and digits',
  },
  video_b: {
    webHost: 'video-b.example',
    hosts: ['video-b.example', 'www.video-b.example', 'm.video-b.example', 'music.video-b.example'],
    uriScheme: 'video-b',
    id: 'UC[A-Za-z0-9_-]{22}',
    idWords: '"UC" followed by 22 characters',
  },
  store_c: {
    webHost: 'music.store-c.example',
    hosts: ['music.store-c.example', 'store-c.example', 'www.store-c.example', 'itunes.store-c.example'],
    uriScheme: 'store-c',
    id: '[0-9]{5,12}',
    idWords: 'digits only',
  },
};

/** A video service B handle without its @. */
export const videoHandle = '[A-Za-z0-9][A-Za-z0-9._-]{2,29}';

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (forms: readonly string[]) => `(?:${forms.join('|')})`;
/** A name in a store C link: starts with a letter or digit (never `.` or `..`, which a URL resolves), no separator, no `%`. */
const slug = '[A-Za-z0-9][^/\\\\?#%\\s]*';
/** After the artist's part of a link: nothing, a slash, a query or a fragment (percent signs only there). */
const tail = '/?(?:[?#][^\\s]*)?';

/** Each form the resolver takes for one platform, as regular expression sources without anchors. */
function formsOf(platform: Platform): string[] {
  const f = artistLinkForms[platform];
  const link = (path: string) => `(?:https?://|//)?${oneOf(f.hosts.map(escaped))}\\.?(?::[0-9]{1,4})?${path}${tail}`;
  switch (platform) {
    case 'streaming_a':
      return [f.id, `${f.uriScheme}:artist:${f.id}`, link(`(?:/intl-[a-z]{2}(?:-[a-z]{2})?)?(?:/embed)?/artist/${f.id}`)];
    case 'video_b':
      return [`@${videoHandle}`, f.id, `${f.uriScheme}:(?:channel|artist):${f.id}`, link(`/(?:@${videoHandle}|channel/${f.id}|browse/${f.id})`)];
    case 'store_c':
      return [f.id, `id${f.id}`, `${f.uriScheme}:artist:${f.id}`, link(`(?:/[a-z]{2})?/artist/(?:${slug}/)?(?:id)?${f.id}`)];
  }
}

/**
 * The pattern of a link to an artist (a channel) on the given platforms: a bare id (or handle),
 * the platform's URI, or a web link on one of its hosts; spaces around it are trimmed.
 */
export function artistLinkPattern(platforms: readonly Platform[]): string {
  return `^\\s*${oneOf(platforms.flatMap(formsOf))}\\s*$`;
}

/** Examples of each form, as a person pastes them. */
export const artistLinkExamples: Readonly<Record<Platform, readonly string[]>> = {
  streaming_a: [
    'https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb',
    'https://open.streaming-a.example/intl-de/artist/4Z8W4fKeB5YxbusRsdQVPb?si=abc',
    'streaming-a:artist:4Z8W4fKeB5YxbusRsdQVPb',
    '4Z8W4fKeB5YxbusRsdQVPb',
  ],
  video_b: [
    'https://video-b.example/@ninavale',
    'https://www.video-b.example/channel/UCq3Vd9mX2kLp8RtYw4ZbN1c',
    'https://music.video-b.example/browse/UCq3Vd9mX2kLp8RtYw4ZbN1c',
    '@ninavale',
    'UCq3Vd9mX2kLp8RtYw4ZbN1c',
  ],
  store_c: [
    'https://music.store-c.example/us/artist/nina-vale/1234567890',
    'https://music.store-c.example/artist/id1234567890',
    'store-c:artist:1234567890',
    '1234567890',
  ],
};

/** The words of a link field's description: the forms, one example of each. */
export function artistLinkDescription(platforms: readonly Platform[]): string {
  const examples = platforms
    .flatMap((p) => artistLinkExamples[p])
    .map((e) => `\`${e}\``)
    .join(', ');
  return (
    `A link to the artist's profile (a channel, on video service B), its platform URI or its bare id (or @handle), e.g. ${examples}. ` +
    'A link to anything else (a track, an album, a video, a playlist) is refused by name; the profile must exist (404).'
  );
}
