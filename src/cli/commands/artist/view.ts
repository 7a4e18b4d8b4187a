// How artist profiles found on the external platforms are shown.
import type { ArtistPlatformResult } from '../../../contract/index.js';
import type { Column, Field } from '../../output/index.js';

export const PLATFORM_NAMES: Record<string, string> = {
  streaming_a: 'streaming service A',
  video_b: 'video service B',
  store_c: 'store C',
};

// Ids and URLs are copied: never cut. An id and its URL (60 characters and more) do not fit 80
// columns together: the URL goes first (it ends in the id; `artist resolve <url>` and --json show it),
// then the follower count; a long name ends in ….
export const profileColumns: Column<ArtistPlatformResult>[] = [
  { header: 'PLATFORM', value: 'platform' },
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'NAME', value: 'name', cut: true },
  { header: 'FOLLOWERS', value: 'followers', kind: 'number', drop: 1 },
  { header: 'URL', value: 'url', drop: 2 },
];

export const profileFields: Field<ArtistPlatformResult>[] = [
  { header: 'Platform', value: (p) => `${p.platform} (${PLATFORM_NAMES[p.platform] ?? p.platform})` },
  { header: 'ID', value: 'id' },
  { header: 'Name', value: 'name' },
  { header: 'Followers', value: 'followers', kind: 'number' },
  { header: 'URL', value: 'url' },
  { header: 'Image', value: 'image_url' },
];
