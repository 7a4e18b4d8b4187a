// How tracks look in tables and records.
import type { TrackResource } from '../../contract/index.js';
import type { Column, Field } from '../output/index.js';
import { artistsText } from './release-views.js';

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
  { header: 'TITLE', value: (t) => (t.version ? `${t.title} (${t.version})` : t.title), cut: true },
  // On a narrow terminal the file name goes first (`track get` shows it), then the duration, then the ISRC.
  { header: 'ISRC', value: 'isrc', drop: 1 },
  { header: 'DURATION', value: (t) => durationText(t.file?.duration_ms), drop: 2 },
  { header: 'FILE', value: 'file.filename', drop: 3, cut: true },
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
