// Each data row under the header read into typed values, field by field (cells.ts), with every
// problem at its line and column. Blank rows (a sheet's trailing empty rows) are passed over.
import type { ArtistCredit, Contributor } from '../../contract/index.js';
import { FIELD_WORDS, type Field } from './columns.js';
import {
  cellText,
  readCopyrightLine,
  readCount,
  readDate,
  readExplicit,
  readIsrc,
  readLanguage,
  readPriceTier,
  readReleaseType,
  readUpc,
  readYear,
  splitNames,
  type Read,
} from './cells.js';
import { creditOf, parseParticipants } from './credits.js';
import type { AudioSource } from './audio.js';
import type { Column, Layout } from './find-header.js';
import type { CellValue } from './read-rows.js';

export interface RowProblem {
  sheet: string | undefined;
  line: number;
  /** "UPC (column E)"; undefined for a problem of the row or release as a whole. */
  column: string | undefined;
  code: string;
  message: string;
  /** error: the row cannot become part of a release; warning: it does, as said (a repair, audio not found). */
  severity: 'error' | 'warning';
}

/** A release's values as one row gives them (each as read, for comparing rows of one release). */
export interface ReleaseValues {
  title?: string;
  version?: string;
  artists?: ArtistCredit[];
  type?: 'single' | 'ep' | 'album' | 'compilation';
  label?: string;
  upc?: string;
  catalog_number?: string;
  release_date?: string;
  preorder_date?: string;
  original_release_date?: string;
  genre?: string;
  subgenre?: string;
  language?: string;
  production_year?: number;
  p_line?: { year: number | undefined; owner: string };
  p_year?: number;
  c_line?: { year: number | undefined; owner: string };
  c_year?: number;
  price_tier?: 'budget' | 'mid' | 'front' | 'premium';
}

export interface TrackValues {
  disc?: number;
  number?: number;
  title?: string;
  version?: string;
  artists: ArtistCredit[];
  contributors: Contributor[];
  isrc?: string;
  explicit?: 'explicit' | 'not_explicit' | 'clean';
  audio_language?: string;
  /** The release file's `file`: an address, or a path relative to the release file; none: no audio yet. */
  file?: string;
  preview_start_seconds?: number;
}

export interface MappedRow {
  line: number;
  /** Order in the sheet (ties of track numbers keep it). */
  order: number;
  /** The release's values as this row gives them (compared across the release's rows). */
  release: ReleaseValues;
  track: TrackValues;
  /** The row has an error: it cannot become part of a release. */
  refused: boolean;
}

export interface MapOptions {
  date1904: boolean;
  currentYear: number;
  /** Where the audio a cell names comes from (audio.ts). */
  audio(named: string): AudioSource;
}

const RELEASE_TEXT: readonly [Field, keyof ReleaseValues][] = [
  ['release_title', 'title'],
  ['release_version', 'version'],
  ['label', 'label'],
  ['catalog_number', 'catalog_number'],
  ['genre', 'genre'],
  ['subgenre', 'subgenre'],
];

/** The column of a field as messages name it: "UPC/EAN (column E)". */
export function columnWords(layout: Layout, field: Field): string | undefined {
  const c = layout.fields.get(field);
  return c ? columnName(c) : undefined;
}

export function columnName(c: Column): string {
  return c.header === '' ? `column ${c.letter}` : `${c.header} (column ${c.letter})`;
}

export function mapRows(layout: Layout, o: MapOptions, problems: RowProblem[]): MappedRow[] {
  const { sheet } = layout;
  const out: MappedRow[] = [];
  const { dates } = layout.template;
  for (let r = layout.headerRow + 1; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r]!;
    if (cells.every((c) => cellText(c) === '')) continue;
    const line = sheet.lines[r]!;
    let refused = false;
    const report = (field: Field | undefined, code: string, message: string, severity: 'error' | 'warning' = 'error') => {
      if (severity === 'error') refused = true;
      problems.push({ sheet: sheet.name, line, column: field ? columnWords(layout, field) : undefined, code, message, severity });
    };
    const raw = (field: Field): CellValue => {
      const c = layout.fields.get(field);
      return c === undefined ? undefined : cells[c.index];
    };
    const textOf = (field: Field): string | undefined => {
      const s = cellText(raw(field));
      return s === '' ? undefined : s;
    };
    const read = <T>(field: Field, reader: (v: CellValue) => Read<T>): T | undefined => {
      if (textOf(field) === undefined) return undefined;
      const res = reader(raw(field));
      if (!res.ok) {
        report(field, res.problem.code, res.problem.message);
        return undefined;
      }
      if (res.repaired) report(field, res.repaired.code, res.repaired.message, 'warning');
      return res.value;
    };

    const release: ReleaseValues = {};
    for (const [field, key] of RELEASE_TEXT) {
      const v = textOf(field);
      if (v !== undefined) (release as Record<string, unknown>)[key] = v;
    }
    const artists = textOf('release_artists');
    if (artists !== undefined) release.artists = artistCredits(artists, (m) => report('release_artists', 'bad_value', m));
    setIf(release, 'type', read('release_type', readReleaseType));
    setIf(release, 'upc', read('upc', readUpc));
    for (const f of ['release_date', 'preorder_date', 'original_release_date'] as const)
      setIf(
        release,
        f,
        read(f, (v) => readDate(v, dates, o.date1904)),
      );
    setIf(
      release,
      'language',
      read('language', (v) => readLanguage(v)),
    );
    setIf(release, 'production_year', read('production_year', readYear));
    setIf(release, 'p_year', read('p_year', readYear));
    setIf(release, 'c_year', read('c_year', readYear));
    if (textOf('p_line') !== undefined) release.p_line = readCopyrightLine(raw('p_line'));
    if (textOf('c_line') !== undefined) release.c_line = readCopyrightLine(raw('c_line'));
    setIf(release, 'price_tier', read('price_tier', readPriceTier));

    const track: TrackValues = { artists: [], contributors: [] };
    setIf(
      track,
      'disc',
      read('disc', (v) => readCount(v, 99)),
    );
    setIf(
      track,
      'number',
      read('track_number', (v) => readCount(v, 999)),
    );
    setIf(track, 'title', textOf('track_title'));
    setIf(track, 'version', textOf('track_version'));
    const trackArtists = textOf('track_artists');
    if (trackArtists !== undefined) track.artists.push(...artistCredits(trackArtists, (m) => report('track_artists', 'bad_value', m)));
    for (const name of splitNames(textOf('featuring') ?? '')) track.artists.push({ name, role: 'featuring' });
    const participants = textOf('participants');
    if (participants !== undefined) {
      const parsed = parseParticipants(participants);
      if ('bad' in parsed) report('participants', 'bad_value', `${parsed.bad}; write role:Name;role:Name`);
      else
        for (const c of parsed.credits) {
          if (c.kind === 'artist') track.artists.push(c.credit);
          else track.contributors.push(c.credit);
        }
    }
    for (const role of ['composer', 'lyricist', 'producer', 'publisher'] as const)
      for (const name of splitNames(textOf(role) ?? '')) track.contributors.push({ name, role });
    setIf(
      track,
      'isrc',
      read('isrc', (v) => readIsrc(v, o.currentYear)),
    );
    setIf(track, 'explicit', read('explicit', readExplicit));
    setIf(
      track,
      'audio_language',
      read('audio_language', (v) => readLanguage(v, { instrumental: true })),
    );
    const named = textOf('audio');
    if (named !== undefined) {
      const source = o.audio(named);
      if (source.kind === 'none' && source.reason) report('audio', source.reason.code, source.reason.message, source.reason.severity);
      else if (source.kind === 'url') track.file = source.url;
      else if (source.kind === 'file') track.file = source.written;
    }
    const preview = read('preview_start', (v) => readCount(v, 3600));
    if (preview !== undefined) track.preview_start_seconds = preview;
    if (track.title === undefined) report('track_title', 'missing', `no ${FIELD_WORDS.track_title}: every row is a track`);
    out.push({ line, order: out.length, release, track, refused });
  }
  return out;
}

function setIf<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) o[key] = value;
}

/** "A feat. B", "A ft B", "A featuring B": a featured artist written into the name, as people do. */
const FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+/i;

/** "Nina Vale", "Nina Vale; Other", "Nina Vale feat. Ava", or participants' form "primary:Nina Vale;featuring:Ava" in an artists column. */
function artistCredits(s: string, bad: (message: string) => void): ArtistCredit[] {
  const out: ArtistCredit[] = [];
  for (const written of splitNames(s)) {
    const [entry, ...featured] = written.split(FEATURING).map((n) => n.trim());
    if (entry === undefined || entry === '') continue;
    const colon = entry.indexOf(':');
    const credit = colon > 0 ? creditOf(entry.slice(0, colon), entry.slice(colon + 1).trim()) : undefined;
    if (credit?.kind === 'artist') out.push(credit.credit);
    else if (credit) bad(`"${entry}": a ${credit.credit.role} is a contributor, not an artist; put it in the participants`);
    else out.push({ name: entry, role: 'primary' });
    for (const name of featured) if (name !== '') out.push({ name, role: 'featuring' });
  }
  return out;
}
