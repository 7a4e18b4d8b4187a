// How releases look in tables and records, and the credit line releases and tracks share.
import type { ArtistCredit, ReleaseResource } from '../../contract/index.js';
import type { Column, Field } from '../output/index.js';

/** "Nina Vale feat. Kai" style credit line. */
export function artistsText(artists: readonly ArtistCredit[] | undefined): string {
  if (!artists?.length) return '';
  const primary = artists.filter((a) => a.role === 'primary').map((a) => a.name);
  const rest = artists
    .filter((a) => a.role !== 'primary')
    .map((a) => `${a.role === 'featuring' ? 'feat.' : a.role === 'with' ? 'with' : 'remix by'} ${a.name}`);
  return [primary.join(', '), ...rest].filter(Boolean).join(' ');
}

function line(l: { year: number; owner: string } | null | undefined, symbol: string): string | null {
  return l ? `${symbol} ${l.year} ${l.owner}` : null;
}

/** "cover.jpg: 3000×3000 px JPEG, RGB", or a declared cover's URL, said to be unverified. */
function coverText(r: ReleaseResource): string | null {
  const a = r.artwork;
  if (!a) return null;
  const facts = `${a.width}×${a.height} px ${a.format === 'jpg' ? 'JPEG' : a.format.toUpperCase()}, ${a.color_space === 'rgb' ? 'RGB' : a.color_space === 'cmyk' ? 'CMYK' : a.color_space}`;
  return a.verified ? `${a.filename ?? a.file_key}: ${facts}` : `${a.url} (declared ${facts}; not verified)`;
}

function territoriesText(r: ReleaseResource): string {
  const t = r.delivery.territories;
  return t.mode === 'worldwide' ? 'worldwide' : `${t.mode} ${t.countries.join(', ')}`;
}

function videoText(r: ReleaseResource): string {
  const v = r.video;
  if (!v.enabled) return 'off';
  return ['on', v.art_tracks ? 'art tracks' : null, v.content_id.enabled ? `content id: ${v.content_id.policy}` : null].filter(Boolean).join(', ');
}

export const releaseColumns: Column<ReleaseResource>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'STATUS', value: 'status', kind: 'status' },
  // On a narrow terminal the UPC goes first, then when it changed, the track count and the type;
  // titles and artists end in … rather than a column of codes being cut.
  { header: 'TYPE', value: 'type', drop: 1 },
  { header: 'TITLE', value: (r) => (r.version ? `${r.title} (${r.version})` : r.title), cut: true },
  { header: 'ARTISTS', value: (r) => artistsText(r.artists), cut: true },
  { header: 'TRACKS', value: 'track_count', kind: 'number', drop: 2 },
  { header: 'UPC', value: 'upc', drop: 4 },
  { header: 'UPDATED', value: 'updated_at', kind: 'date', drop: 3 },
];

export const releaseFields: Field<ReleaseResource>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'Status', value: 'status', kind: 'status' },
  { header: 'Type', value: 'type' },
  { header: 'Title', value: 'title' },
  { header: 'Version', value: 'version' },
  { header: 'Artists', value: (r) => artistsText(r.artists) },
  { header: 'Label', value: 'label' },
  { header: 'Catalog number', value: 'catalog_number' },
  { header: 'UPC', value: 'upc' },
  { header: 'Genre', value: (r) => [r.genre, r.subgenre].filter(Boolean).join(' / ') },
  { header: 'Language', value: 'language' },
  { header: 'P line', value: (r) => line(r.p_line, '℗') },
  { header: 'C line', value: (r) => line(r.c_line, '©') },
  { header: 'Explicit', value: 'explicit' },
  { header: 'Original date', value: 'original_release_date' },
  { header: 'Cover', value: coverText },
  { header: 'Release date', value: 'delivery.release_date' },
  { header: 'Preorder date', value: 'delivery.preorder_date' },
  { header: 'Platforms', value: (r) => (r.delivery.platforms === 'all' ? 'all' : r.delivery.platforms.join(', ')) },
  { header: 'Territories', value: territoriesText },
  { header: 'Price tier', value: 'delivery.price_tier' },
  { header: 'Video', value: videoText },
  { header: 'Tracks', value: 'track_count', kind: 'number' },
  { header: 'Review', value: (r) => (r.review ? [r.review.codes.join(', '), r.review.notes].filter(Boolean).join(': ') : null) },
  { header: 'Created', value: 'created_at', kind: 'date' },
  { header: 'Updated', value: 'updated_at', kind: 'date' },
  { header: 'Submitted', value: 'submitted_at', kind: 'date' },
];

/** A release status in words: "in_review" → "in review". */
export function statusWords(status: string): string {
  return status.replace(/_/g, ' ');
}
