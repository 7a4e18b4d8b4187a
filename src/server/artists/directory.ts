// The seam between the service and an artist platform. The reference service ships a seeded,
// offline directory (seeded.ts); an adapter for a real platform API implements the same
// interface and is handed to the handlers instead.
import type { ArtistPlatformResult } from '../../contract/resources.js';
import { paging } from '../../contract/routes.js';
import type { ArtistPlatform } from './platforms.js';

/** An artist (or, on video service B, a channel) profile, exactly as the wire carries it. */
export type { ArtistPlatformResult };

export const SEARCH_LIMIT_DEFAULT = paging.searchDefaultLimit;
export const SEARCH_LIMIT_MAX = paging.searchMaxLimit;

export interface ArtistDirectory {
  /** Profiles whose name matches `name`, best match first, at most `limit` (1..SEARCH_LIMIT_MAX). */
  search(platform: ArtistPlatform, name: string, limit: number): Promise<ArtistPlatformResult[]>;
  /** The profile with this platform id, or undefined when the platform has none. */
  get(platform: ArtistPlatform, id: string): Promise<ArtistPlatformResult | undefined>;
  /** Video service B channels are also addressed by `@handle` (given without the `@`). */
  getByHandle(platform: ArtistPlatform, handle: string): Promise<ArtistPlatformResult | undefined>;
}

/** Clamp a requested limit into 1..SEARCH_LIMIT_MAX (adapters call this too). */
export function boundedLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return SEARCH_LIMIT_DEFAULT;
  return Math.min(SEARCH_LIMIT_MAX, Math.max(1, Math.trunc(limit)));
}
