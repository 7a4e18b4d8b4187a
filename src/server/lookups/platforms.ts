// Where a release can be delivered (the stores of a delivery's `platforms`), and the three
// platforms that hold artist profiles. Neutral names, as in the specification: the kinds mirror
// a real distributor's store list (subscription streaming, download stores, video, social /
// short-video). Ids are stable wire values; names are for display.
import type { LookupPlatformsData } from '../../contract/resources.js';
import { ARTIST_PLATFORMS, PLATFORM_INFO } from '../artists/platforms.js';

type Store = LookupPlatformsData['stores'][number];

export const STORES: readonly Store[] = [
  { id: 'streaming_a', name: 'Streaming service A', kind: 'streaming' },
  { id: 'video_b', name: 'Video service B', kind: 'video' },
  { id: 'store_c', name: 'Store C', kind: 'download' },
  { id: 'streaming_d', name: 'Streaming service D', kind: 'streaming' },
  { id: 'streaming_e', name: 'Streaming service E (hi-fi)', kind: 'streaming' },
  { id: 'streaming_f', name: 'Streaming service F', kind: 'streaming' },
  { id: 'radio_g', name: 'Internet radio G', kind: 'streaming' },
  { id: 'streaming_h', name: 'Streaming service H (regional, Africa)', kind: 'streaming' },
  { id: 'streaming_i', name: 'Streaming service I (regional, South Asia)', kind: 'streaming' },
  { id: 'streaming_j', name: 'Streaming service J (regional, East Asia)', kind: 'streaming' },
  { id: 'store_k', name: 'Download store K (DJ)', kind: 'download' },
  { id: 'store_l', name: 'Download store L', kind: 'download' },
  { id: 'short_video_m', name: 'Short-video service M', kind: 'social' },
  { id: 'social_n', name: 'Social network N (music library)', kind: 'social' },
  { id: 'video_o', name: 'Video service O', kind: 'video' },
];

export function platformsLookup(): LookupPlatformsData {
  return {
    stores: STORES.map((s) => ({ ...s })),
    artist_platforms: ARTIST_PLATFORMS.map((id) => ({ id, name: PLATFORM_INFO[id].name })),
  };
}

const storeIds = new Set(STORES.map((s) => s.id));
export function isStoreId(id: string): boolean {
  return storeIds.has(id);
}
