// The three external artist platforms, their wire ids and the host names the reference service
// invents for them. Real hosts are never named: the specification keeps the platforms neutral.

import type { ArtistPlatform } from '../../contract/common.js';
import { artistPlatformIds } from '../../contract/wire-values.js';

export type { ArtistPlatform };
/** The enum's values, in the contract's order. */
export const ARTIST_PLATFORMS: readonly ArtistPlatform[] = artistPlatformIds;

export interface ArtistPlatformInfo {
  id: ArtistPlatform;
  name: string;
  /** The name inside a sentence ("this store C link…"). */
  prose: string;
  /** Host of the canonical web links the directory hands out. */
  webHost: string;
  /** Every host a pasted link may carry (canonical first). */
  hosts: readonly string[];
  /** Scheme of the platform URI form (`streaming-a:artist:<id>`). */
  uriScheme: string;
  imageHost: string;
}

export const PLATFORM_INFO: Readonly<Record<ArtistPlatform, ArtistPlatformInfo>> = {
  streaming_a: {
    id: 'streaming_a',
    name: 'Streaming service A',
    prose: 'streaming service A',
    webHost: 'open.streaming-a.example',
    hosts: ['open.streaming-a.example', 'streaming-a.example', 'www.streaming-a.example', 'play.streaming-a.example'],
    uriScheme: 'streaming-a',
    imageHost: 'i.streaming-a.example',
  },
  video_b: {
    id: 'video_b',
    name: 'Video service B',
    prose: 'video service B',
    webHost: 'video-b.example',
    hosts: ['video-b.example', 'www.video-b.example', 'm.video-b.example', 'music.video-b.example'],
    uriScheme: 'video-b',
    imageHost: 'img.video-b.example',
  },
  store_c: {
    id: 'store_c',
    name: 'Store C',
    prose: 'store C',
    webHost: 'music.store-c.example',
    hosts: ['music.store-c.example', 'store-c.example', 'www.store-c.example', 'itunes.store-c.example'],
    uriScheme: 'store-c',
    imageHost: 'is1.store-c.example',
  },
};

export function isArtistPlatform(value: unknown): value is ArtistPlatform {
  return typeof value === 'string' && (ARTIST_PLATFORMS as readonly string[]).includes(value);
}

/** The platform whose hosts include `host` (lower-case, no port), if any. */
export function platformForHost(host: string): ArtistPlatform | undefined {
  const h = host.toLowerCase();
  return ARTIST_PLATFORMS.find((p) => PLATFORM_INFO[p].hosts.includes(h));
}

/** The platform whose URI scheme is `scheme`, if any. */
export function platformForUriScheme(scheme: string): ArtistPlatform | undefined {
  const s = scheme.toLowerCase();
  return ARTIST_PLATFORMS.find((p) => PLATFORM_INFO[p].uriScheme === s);
}
