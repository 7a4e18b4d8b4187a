// Helpers shared by the resource commands (release, track, artist, prefs, label, lookup): the
// client, argument parsing, and how releases and tracks look in tables and records.
// Loaded only from inside `run` (it is cheap, but nothing at start-up needs it).
import type { ApiClient } from '../../../client/index.js';
import type { ArtistCredit, ArtistPlatform, ReleaseResource, TrackResource } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { Column, Field } from '../../output/index.js';

/** An id from the command line: opaque (strings and numbers), but never empty or a path. */
export function idArg(value: string | undefined, what: string): string {
  const v = (value ?? '').trim();
  if (v === '' || v.length > 64 || /[\s/?#]/.test(v)) {
    throw new UsageError(`${what}: expected an id like 42, got ${v === '' ? 'nothing' : `"${v}"`}`);
  }
  return v;
}

/** A whole number flag within bounds; undefined when not given. */
export function intOption(value: unknown, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got "${s}"`);
  }
  return n;
}

/** One of a fixed set of values for a flag. */
export function choiceOption<V extends string>(value: unknown, flag: string, choices: readonly V[]): V | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim().toLowerCase().replace(/-/g, '_') as V;
  if (!choices.includes(s)) throw new UsageError(`${flag}: expected one of ${choices.join(', ')}, got "${String(value)}"`);
  return s;
}

export const PLATFORMS = ['streaming_a', 'video_b', 'store_c'] as const satisfies readonly ArtistPlatform[];

const PLATFORM_ALIASES: Record<string, ArtistPlatform> = {
  streaming_a: 'streaming_a', a: 'streaming_a', streaming: 'streaming_a',
  video_b: 'video_b', b: 'video_b', video: 'video_b', video_channel: 'video_b',
  store_c: 'store_c', c: 'store_c', store: 'store_c',
};

/** `--platform streaming_a` (also streaming-a, a, video, store…). */
export function platformOption(value: unknown, flag = '--platform'): ArtistPlatform | undefined {
  if (value === undefined) return undefined;
  const p = PLATFORM_ALIASES[String(value).trim().toLowerCase().replace(/-/g, '_')];
  if (!p) throw new UsageError(`${flag}: expected one of ${PLATFORMS.join(', ')}, got "${String(value)}"`);
  return p;
}

/** "Nina Vale feat. Kai" style credit line. */
export function artistsText(artists: readonly ArtistCredit[] | undefined): string {
  if (!artists?.length) return '';
  const primary = artists.filter((a) => a.role === 'primary').map((a) => a.name);
  const rest = artists.filter((a) => a.role !== 'primary').map((a) => `${a.role === 'featuring' ? 'feat.' : a.role === 'with' ? 'with' : 'remix by'} ${a.name}`);
  return [primary.join(', '), ...rest].filter(Boolean).join(' ');
}

function line(l: { year: number; owner: string } | null | undefined, symbol: string): string | null {
  return l ? `${symbol} ${l.year} ${l.owner}` : null;
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
  { header: 'TYPE', value: 'type' },
  { header: 'TITLE', value: (r) => (r.version ? `${r.title} (${r.version})` : r.title) },
  { header: 'ARTISTS', value: (r) => artistsText(r.artists) },
  { header: 'TRACKS', value: 'track_count', kind: 'number' },
  { header: 'UPC', value: 'upc' },
  { header: 'UPDATED', value: 'updated_at', kind: 'date' },
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

export function durationText(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function audioText(t: TrackResource): string | null {
  const f = t.file;
  if (!f) return null;
  return `${f.format.toUpperCase()} ${f.bit_depth}-bit ${f.sample_rate / 1000} kHz ${f.channels === 2 ? 'stereo' : `${f.channels} ch`}`;
}

export const trackColumns: Column<TrackResource>[] = [
  { header: '#', value: (t) => (t.disc > 1 ? `${t.disc}-${t.position}` : t.position) },
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'TITLE', value: (t) => (t.version ? `${t.title} (${t.version})` : t.title) },
  { header: 'ISRC', value: 'isrc' },
  { header: 'DURATION', value: (t) => durationText(t.file?.duration_ms) },
  { header: 'FILE', value: 'file.filename' },
  { header: 'STATE', value: 'file.state', kind: 'status' },
];

export const trackFields: Field<TrackResource>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'Release', value: 'release_id', kind: 'id' },
  { header: 'Position', value: (t) => `${t.position} (disc ${t.disc})` },
  { header: 'Title', value: 'title' },
  { header: 'Version', value: 'version' },
  { header: 'Artists', value: (t) => artistsText(t.artists) },
  { header: 'Contributors', value: (t) => t.contributors.map((c) => `${c.name} (${c.role})`).join(', ') },
  { header: 'ISRC', value: 'isrc' },
  { header: 'Explicit', value: 'explicit' },
  { header: 'Audio language', value: 'audio_language' },
  { header: 'Preview start', value: 'preview_start_seconds' },
  { header: 'File', value: 'file.filename' },
  { header: 'File state', value: 'file.state', kind: 'status' },
  { header: 'Audio', value: audioText },
  { header: 'Duration', value: (t) => durationText(t.file?.duration_ms) },
  { header: 'SHA-256', value: 'file.sha256' },
  { header: 'Created', value: 'created_at', kind: 'date' },
  { header: 'Updated', value: 'updated_at', kind: 'date' },
];

/** Exit status of several outcomes: anything else is worse than "blocked", which is worse than ok. */
export function worstExit(codes: readonly number[]): number {
  const rank = (c: number) => (c === ExitCode.ok ? 0 : c === ExitCode.validation ? 1 : 2);
  let worst: number = ExitCode.ok;
  for (const c of codes) if (rank(c) > rank(worst)) worst = c;
  return worst;
}
