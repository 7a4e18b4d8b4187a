// Which artist directory the service asks. The seeded one by default; a deployment with a real
// platform adapter installs it once at start-up with useArtistDirectory().
import type { ArtistDirectory } from './directory.js';
import { SeededArtistDirectory } from './seeded.js';

let seeded: SeededArtistDirectory | undefined;
let current: ArtistDirectory | undefined;

/** The deterministic offline directory (built on first use, ~20 ms). */
export function seededDirectory(): SeededArtistDirectory {
  seeded ??= new SeededArtistDirectory();
  return seeded;
}

export function artistDirectory(): ArtistDirectory {
  return current ?? seededDirectory();
}

/** Replace the directory for the whole process (pass undefined to go back to the seeded one). */
export function useArtistDirectory(directory: ArtistDirectory | undefined): void {
  current = directory;
}

export type { ArtistDirectory, ArtistPlatformResult } from './directory.js';
export { ARTIST_PLATFORMS, PLATFORM_INFO, isArtistPlatform, type ArtistPlatform } from './platforms.js';
export { parseArtistLink, resolveArtistLink } from './resolve.js';
