// The three external artist platforms, their wire ids and the host names the reference service
// invents for them. Real hosts are never named: the specification keeps the platforms neutral.

import type { ArtistPlatform } from '../../contract/common.js';
import { artistLinkForms } from '../../contract/artist-links.js';
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

/** The hosts and URI scheme of a platform's links, as the contract states them (artist-links.ts). */
function linkFacts(p: ArtistPlatform): Pick<ArtistPlatformInfo, 'webHost' | 'hosts' | 'uriScheme'> {
  const { webHost, hosts, uriScheme } = artistLinkForms[p];
  return { webHost, hosts, uriScheme };
}

export const PLATFORM_INFO: Readonly<Record<ArtistPlatform, ArtistPlatformInfo>> = {
  streaming_a: {
    id: 'streaming_a',
    name: 'Streaming service A',
    prose: 'streaming service A',
    ...linkFacts('streaming_a'),
    imageHost: 'i.streaming-a.example',
  },
  video_b: {
    id: 'video_b',
    name: 'Video service B',
    prose: 'video service B',
    ...linkFacts('video_b'),
    imageHost: 'img.video-b.example',
  },
  store_c: {
    id: 'store_c',
    name: 'Store C',
    prose: 'store C',
    ...linkFacts('store_c'),
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
