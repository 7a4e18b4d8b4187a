// How artist profiles found on the external platforms are shown.
import type { ArtistPlatformResult } from '../../../contract/index.js';
import type { Column, Field } from '../../output/index.js';

export const PLATFORM_NAMES: Record<string, string> = {
  streaming_a: 'streaming service A',
  video_b: 'video service B',
  store_c: 'store C',
};

export const profileColumns: Column<ArtistPlatformResult>[] = [
  { header: 'PLATFORM', value: 'platform' },
  { header: 'ID', value: 'id' },
  { header: 'NAME', value: 'name' },
  { header: 'FOLLOWERS', value: 'followers', kind: 'number' },
  { header: 'URL', value: 'url' },
];

export const profileFields: Field<ArtistPlatformResult>[] = [
  { header: 'Platform', value: (p) => `${p.platform} (${PLATFORM_NAMES[p.platform] ?? p.platform})` },
  { header: 'ID', value: 'id' },
  { header: 'Name', value: 'name' },
  { header: 'Followers', value: 'followers', kind: 'number' },
  { header: 'URL', value: 'url' },
  { header: 'Image', value: 'image_url' },
];
