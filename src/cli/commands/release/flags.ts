// The release fields as flags, shared by `release create` and `release edit`. Declaring flags
// loads nothing; turning them into request bodies happens in `run` (see build.ts).
import { choice, collect, fromService, option, type OptionsOf } from '../../command.js';
import { contentIdPolicies, explicitValues, priceTiers, releaseTypes } from '../../../contract/wire-values.js';

export const METADATA_FLAGS = [
  choice('--type <type>', 'single, ep, album or compilation', releaseTypes),
  option('--title <title>', 'the title, without "feat." or version words'),
  // Not --version: that one prints reldist's own version.
  option('--release-version <text>', 'the version: "Deluxe Edition", "Live", "Remix"… (never in the title)'),
  option('--artist <name>', 'a primary artist (repeat for several; one person each)', collect),
  option('--featuring <name>', 'a featured artist (repeatable)', collect),
  option('--with <name>', 'an artist credited "with" (repeatable)', collect),
  option('--remixer <name>', 'a remixer (repeatable)', collect),
  option('--label <name>', 'the label name'),
  option('--catalog-number <code>', 'your catalogue number, at most 20 characters'),
  option('--upc <code>', 'the UPC/EAN; leave out to have one assigned at submit'),
  fromService('--genre <genre>', 'from `reldist lookup genres`', 'genre'),
  fromService('--subgenre <genre>', 'from `reldist lookup genres`', 'genre'),
  option('--language <code>', 'language of the metadata, from `reldist lookup languages` (e.g. en)'),
  option('--p-line <year owner>', 'the ℗ line, e.g. "2026 Northern Lights Records"'),
  option('--c-line <year owner>', 'the © line, e.g. "2026 Northern Lights Records"'),
  option('--original-release-date <date>', 'YYYY-MM-DD, for a re-release'),
  choice('--explicit <value>', 'explicit, not_explicit or clean', explicitValues),
] as const;
export type MetadataFlags = OptionsOf<typeof METADATA_FLAGS>;

export const DELIVERY_FLAGS = [
  option('--release-date <date>', 'delivery: the release date, YYYY-MM-DD'),
  option('--preorder-date <date>', 'delivery: the preorder date, before the release date'),
  option('--platforms <ids>', 'delivery: "all" or store ids from `reldist lookup platforms`, comma-separated'),
  option('--territories <spec>', 'delivery: worldwide, include:DE,FR or exclude:KP (codes from `reldist lookup countries`)'),
  choice('--price-tier <tier>', 'delivery: budget, mid, front or premium', priceTiers),
] as const;
export type DeliveryFlags = OptionsOf<typeof DELIVERY_FLAGS>;

export const VIDEO_FLAGS = [
  choice('--video-enabled <yes|no>', 'video: also deliver to video service B', ['yes', 'no']),
  choice('--art-tracks <yes|no>', 'video: one static-art video per track', ['yes', 'no']),
  choice('--content-id <policy>', 'video: content ID policy monetize, track or block; or off', [...contentIdPolicies, 'off']),
] as const;
export type VideoFlags = OptionsOf<typeof VIDEO_FLAGS>;

/** Which flag sets a field: a bad value is reported against the flag the user typed. */
export const FLAG_OF_FIELD: Record<string, string> = {
  type: '--type',
  title: '--title',
  version: '--release-version',
  artists: '--artist',
  label: '--label',
  catalog_number: '--catalog-number',
  upc: '--upc',
  genre: '--genre',
  subgenre: '--subgenre',
  language: '--language',
  p_line: '--p-line',
  c_line: '--c-line',
  original_release_date: '--original-release-date',
  explicit: '--explicit',
  release_date: '--release-date',
  preorder_date: '--preorder-date',
  platforms: '--platforms',
  territories: '--territories',
  price_tier: '--price-tier',
  enabled: '--video-enabled',
  art_tracks: '--art-tracks',
  content_id: '--content-id',
};
