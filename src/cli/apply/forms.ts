// Values in the form the service stores them, so that a release that has converged compares equal
// to its file: text trimmed, "" as none, genre without case, UPC as a product (012345678905 =
// 0012345678905), ISRC compact (GB-NLR-26-00001 = GBNLR2600001), platform and country lists as
// sets (the service drops repeats).
import type { ArtistCredit, Contributor, CreateReleaseRequest, ReleaseResource, UpdateReleaseDeliveryRequest } from '../../contract/index.js';
import { checkIsrc, checkUpc } from '../../codes/index.js';
import type { FieldChange } from './types.js';

export type MetadataKey = keyof CreateReleaseRequest & keyof ReleaseResource;

/** Each release field in its stored, comparable form. */
export const METADATA_FORMS: { [K in MetadataKey]: (v: CreateReleaseRequest[K] | ReleaseResource[K]) => unknown } = {
  type: (v) => v,
  title: (v) => v.trim(),
  artists: (v) => credits(v),
  label: (v) => v.trim(),
  version: (v) => blankToNull(v),
  catalog_number: (v) => blankToNull(v),
  upc: (v) => upcForm(blankToNull(v)),
  genre: (v) => blankToNull(v)?.toLowerCase() ?? null,
  subgenre: (v) => blankToNull(v),
  language: (v) => blankToNull(v),
  p_line: (v) => (v == null ? null : { year: v.year, owner: v.owner.trim() }),
  c_line: (v) => (v == null ? null : { year: v.year, owner: v.owner.trim() }),
  original_release_date: (v) => v ?? null,
  explicit: (v) => v,
  // An uploaded cover by its upload; a declared one (older release files) by what was declared.
  artwork: (v) => {
    if (v == null) return null;
    if ('file_key' in v && v.file_key != null) return { file_key: v.file_key };
    return 'url' in v && v.url != null ? { url: v.url, width: v.width, height: v.height, format: v.format, color_space: v.color_space } : null;
  },
};

export const METADATA_KEYS = Object.keys(METADATA_FORMS) as MetadataKey[];

export type TrackFieldKey = 'title' | 'version' | 'artists' | 'contributors' | 'isrc' | 'explicit' | 'audio_language' | 'preview_start_seconds';

/** Each track field in its stored, comparable form. */
export const TRACK_FORMS: Record<TrackFieldKey, (v: never) => unknown> = {
  title: (v: string) => v.trim(),
  version: (v: string | null | undefined) => blankToNull(v),
  artists: (v: ArtistCredit[]) => credits(v),
  contributors: (v: Contributor[]) => v.map((c) => ({ name: c.name.trim(), role: c.role })),
  isrc: (v: string | null | undefined) => isrcForm(blankToNull(v)),
  explicit: (v: string) => v,
  audio_language: (v: string | null | undefined) => blankToNull(v),
  preview_start_seconds: (v: number | null | undefined) => v ?? null,
};

export const TRACK_KEYS = Object.keys(TRACK_FORMS) as TrackFieldKey[];

export type Delivery = ReleaseResource['delivery'];
export type DeliveryKey = keyof Delivery;

export const DELIVERY_FORMS: { [K in DeliveryKey]: (v: NonNullable<UpdateReleaseDeliveryRequest[K]> | Delivery[K] | null) => unknown } = {
  platforms: (v) => (v === 'all' ? 'all' : sortedSet(v ?? [])),
  territories: (v) => (v == null ? null : { mode: v.mode, countries: sortedSet(v.countries ?? []) }),
  release_date: (v) => v ?? null,
  preorder_date: (v) => v ?? null,
  price_tier: (v) => v ?? null,
};

/** Empty text means "not set" on the service. */
export function blankToNull(v: string | null | undefined): string | null {
  if (v == null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** A valid UPC as its 14-digit product code; anything else as written (the service keeps it so). */
export function upcForm(v: string | null): string | null {
  if (v === null) return null;
  return checkUpc(v).gtin14 ?? v;
}

/** A valid ISRC compact; the year given only changes warnings, never the compact form. */
export function isrcForm(v: string | null): string | null {
  if (v === null) return null;
  return checkIsrc(v, { currentYear: 2000 }).normalized ?? v;
}

export function credits(list: readonly ArtistCredit[]): unknown {
  return list.map((a) => ({ name: a.name.trim(), role: a.role, artist_id: a.artist_id ?? null }));
}

export function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function fieldChange(path: string, label: string, before: unknown, after: unknown): FieldChange {
  return { path, label, before, after };
}
