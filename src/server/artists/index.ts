// Which artist directory the service asks is a dependency (ServerDeps.artists), chosen where the
// service starts: the seeded one by default; a deployment with a real platform adapter, or a test
// that needs a different directory, passes its own to startServer.
import type { ArtistDirectory } from './directory.js';
import { SeededArtistDirectory } from './seeded.js';

let seeded: SeededArtistDirectory | undefined;

/** The deterministic offline directory, built on first use (~20 ms) and shared: it never changes. */
export function seededDirectory(): SeededArtistDirectory {
  seeded ??= new SeededArtistDirectory();
  return seeded;
}

/** The seeded directory behind the seam, built only when first asked (a start that never searches pays nothing). */
export function lazySeededDirectory(): ArtistDirectory {
  return {
    search: (platform, name, limit) => seededDirectory().search(platform, name, limit),
    get: (platform, id) => seededDirectory().get(platform, id),
    getByHandle: (platform, handle) => seededDirectory().getByHandle(platform, handle),
  };
}

export type { ArtistDirectory, ArtistPlatformResult } from './directory.js';
export { ARTIST_PLATFORMS, PLATFORM_INFO, isArtistPlatform, type ArtistPlatform } from './platforms.js';
export { parseArtistLink, resolveArtistLink } from './resolve.js';
