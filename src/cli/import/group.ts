// Rows into releases: grouped by catalog number, else UPC (a row with neither continues the
// release of the row above, as a template that writes a release's columns on its first row only
// is read); the release's values must agree across its rows; tracks ordered by disc and track
// number, then row order. Each release becomes a release file's data, checked against the release
// file's schema and the submit's field rules (what can never pass is refused here, not at apply).
import { catalogNumberKey } from '../../contract/catalog-number.js';
import type { ArtistCredit, Contributor } from '../../contract/index.js';
import { judgeAtDoor } from '../shared/field-checks.js';
import { pathText, problemsFromIssues } from '../shared/field-problems.js';
import { ReleaseFile } from '../release-file/schema.js';
import { plural } from '../output/index.js';
import { FIELD_WORDS, type Field } from './columns.js';
import type { SheetCredit } from './contributor-sheet.js';
import type { Layout } from './find-header.js';
import { columnWords, type MappedRow, type ReleaseValues, type RowProblem } from './map-rows.js';

export interface ImportedRelease {
  catalogNumber: string;
  /** The catalog number was not in the sheet: the UPC stands for it (apply finds a release by it). */
  catalogFromUpc: boolean;
  rows: MappedRow[];
  /** The release file's data (audio resolved later: each track's `audio` as the sheet names it). */
  data: Record<string, unknown>;
  /** Per track of data.tracks: the row it came from. */
  tracks: { row: MappedRow }[];
  /** Any row of it was refused, or the release as a whole was. */
  failed: boolean;
  /** Its data (without the refused rows' tracks) is a release file apply takes: what --partial may write. */
  partialOk: boolean;
}

/** The release fields compared across a release's rows, with the column each comes from. */
const RELEASE_KEYS: readonly [keyof ReleaseValues, Field][] = [
  ['title', 'release_title'],
  ['version', 'release_version'],
  ['artists', 'release_artists'],
  ['type', 'release_type'],
  ['label', 'label'],
  ['upc', 'upc'],
  ['catalog_number', 'catalog_number'],
  ['release_date', 'release_date'],
  ['preorder_date', 'preorder_date'],
  ['original_release_date', 'original_release_date'],
  ['genre', 'genre'],
  ['subgenre', 'subgenre'],
  ['language', 'language'],
  ['production_year', 'production_year'],
  ['p_line', 'p_line'],
  ['p_year', 'p_year'],
  ['c_line', 'c_line'],
  ['c_year', 'c_year'],
  ['price_tier', 'price_tier'],
];

export function groupReleases(
  layout: Layout,
  rows: readonly MappedRow[],
  problems: RowProblem[],
  now: Date,
  credits: readonly SheetCredit[] = [],
): ImportedRelease[] {
  const sheet = layout.sheet.name;
  const groups = new Map<string, { rows: MappedRow[]; byUpc: boolean }>();
  let previous: string | undefined;
  for (const row of rows) {
    const cat = row.release.catalog_number;
    let key: string | undefined;
    if (cat !== undefined) key = `cat:${catalogNumberKey(cat)}`;
    else if (row.release.upc !== undefined) key = `upc:${row.release.upc.padStart(14, '0')}`;
    else if (previous !== undefined && (row.release.title === undefined || row.release.title === groups.get(previous)!.rows[0]!.release.title)) key = previous;
    if (key === undefined) {
      // A refused UPC leaves no key: its own problem already says why.
      if (!row.refused)
        problems.push({
          sheet,
          line: row.line,
          column: columnWords(layout, 'catalog_number') ?? columnWords(layout, 'upc'),
          code: 'missing',
          message: 'no catalog number or UPC: the row cannot be placed in a release',
          severity: 'error',
        });
      row.refused = true;
      continue;
    }
    previous = key;
    const g = groups.get(key) ?? { rows: [], byUpc: key.startsWith('upc:') };
    g.rows.push(row);
    groups.set(key, g);
  }
  const used = new Set<SheetCredit>();
  const releases = [...groups.values()].map((g) => {
    const cat = g.rows.find((r) => r.release.catalog_number !== undefined)?.release.catalog_number;
    const upc = g.rows.find((r) => r.release.upc !== undefined)?.release.upc;
    const mine = credits.filter((c) =>
      'catalog' in c.release
        ? cat !== undefined && catalogNumberKey(c.release.catalog) === catalogNumberKey(cat)
        : upc !== undefined && sameUpc(c.release.upc, upc),
    );
    for (const c of mine) used.add(c);
    return buildRelease(layout, g.rows, problems, now, mine);
  });
  for (const c of credits)
    if (!used.has(c))
      problems.push({
        sheet: c.sheet,
        line: c.line,
        column: undefined,
        code: 'no_release',
        message:
          `${'catalog' in c.release ? `catalog number "${c.release.catalog}"` : `UPC ${c.release.upc}`} is no release of sheet ${layout.sheet.name ?? ''}: the credit of ${c.credit.credit.name} was not placed`.replace(
            ' of sheet :',
            ':',
          ),
        severity: 'error',
      });
  return releases;
}

const sameUpc = (a: string, b: string) => a.padStart(14, '0') === b.padStart(14, '0');

function buildRelease(layout: Layout, rows: MappedRow[], problems: RowProblem[], now: Date, credits: readonly SheetCredit[]): ImportedRelease {
  const sheet = layout.sheet.name;
  const error = (row: MappedRow, field: Field | undefined, code: string, message: string) => {
    row.refused = true;
    problems.push({ sheet, line: row.line, column: field ? columnWords(layout, field) : undefined, code, message, severity: 'error' });
  };
  // The release's values: the first row giving each; a later row giving another is refused.
  const values: ReleaseValues = {};
  const from = new Map<keyof ReleaseValues, MappedRow>();
  for (const row of rows) {
    for (const [key, field] of RELEASE_KEYS) {
      const v = row.release[key];
      if (v === undefined) continue;
      const had = values[key];
      if (had === undefined) {
        (values as Record<string, unknown>)[key] = v;
        from.set(key, row);
      } else if ((key === 'p_line' || key === 'c_line') && sameLine(values[key]!, row.release[key]!)) {
        // One row writes the year, another leaves it out: the same line, with its year.
        values[key] = { owner: values[key]!.owner, year: values[key]!.year ?? row.release[key]!.year };
      } else if (JSON.stringify(had) !== JSON.stringify(v)) {
        error(row, field, 'conflict', `${show(v)} here, but ${show(had)} on line ${from.get(key)!.line} of the same release`);
      }
    }
  }
  const first = rows[0]!;
  const catalogFromUpc = values.catalog_number === undefined;
  const catalogNumber = values.catalog_number ?? values.upc ?? '';

  // Tracks: by disc, then track number (a row without one after those with), then row order.
  const tracks = [...rows].sort(
    (a, b) => (a.track.disc ?? 1) - (b.track.disc ?? 1) || (a.track.number ?? Infinity) - (b.track.number ?? Infinity) || a.order - b.order,
  );
  const taken = new Map<string, MappedRow>();
  const isrcs = new Map<string, MappedRow>();
  for (const row of tracks) {
    if (row.track.number !== undefined) {
      const place = `${row.track.disc ?? 1}:${row.track.number}`;
      const had = taken.get(place);
      if (had)
        error(row, 'track_number', 'duplicate', `track ${row.track.number}${row.track.disc ? ` of disc ${row.track.disc}` : ''} is also on line ${had.line}`);
      else taken.set(place, row);
    }
    if (row.track.isrc !== undefined) {
      const had = isrcs.get(row.track.isrc);
      if (had) error(row, 'isrc', 'duplicate', `ISRC ${row.track.isrc} is also on line ${had.line}: each recording of a release has its own`);
      else isrcs.set(row.track.isrc, row);
    }
  }

  // Required release values, said on the release's first row.
  const artists = values.artists ?? commonPrimaries(tracks);
  for (const [key, field] of [
    ['title', 'release_title'],
    ['label', 'label'],
  ] as const)
    if (values[key] === undefined) error(first, field, 'missing', `no ${FIELD_WORDS[field]} on any row of the release`);
  if (artists === undefined)
    error(first, 'release_artists', 'missing', `no ${FIELD_WORDS.release_artists} on any row of the release (nor one primary artist on every track)`);

  const kept = tracks.filter((r) => !r.refused);
  const yearOf = (key: 'p_line' | 'c_line', own: 'p_year' | 'c_year') => {
    const line = values[key];
    if (line === undefined) return undefined;
    const year = line.year ?? values[own] ?? values.production_year ?? yearOfDate(values.release_date) ?? yearOfDate(values.original_release_date);
    if (year === undefined) {
      error(from.get(key)!, key, 'missing', `${FIELD_WORDS[key]} "${line.owner}" has no year, and no production year or release date gives one`);
      return undefined;
    }
    return { year, owner: line.owner };
  };
  const p_line = yearOf('p_line', 'p_year');
  const c_line = yearOf('c_line', 'c_year');

  const explicitValues = kept.map((r) => r.track.explicit);
  const releaseExplicit = explicitValues.some((e) => e === 'explicit')
    ? 'explicit'
    : explicitValues.length > 0 && explicitValues.every((e) => e === 'clean')
      ? 'clean'
      : layout.fields.has('explicit')
        ? 'not_explicit'
        : undefined;
  const multiDisc = kept.some((r) => (r.track.disc ?? 1) !== 1);
  const last = new Map<number, number>();
  const places = kept.map((r) => {
    const disc = r.track.disc ?? 1;
    const implied = (last.get(disc) ?? 0) + 1;
    const position = r.track.number ?? implied;
    last.set(disc, Math.max(last.get(disc) ?? 0, position));
    return { disc, implied, position };
  });
  // The contributor sheet's credits, on the tracks at the positions they name (in the release's order, discs counted on).
  const sheetCredits = kept.map((): SheetCredit['credit'][] => []);
  let failedCredit = false;
  for (const c of credits) {
    const targets = c.positions === 'all' ? kept.map((_, i) => i) : c.positions.map((p) => p - 1);
    const missing = c.positions === 'all' ? [] : c.positions.filter((p) => p > kept.length);
    if (missing.length > 0) {
      failedCredit = true;
      problems.push({
        sheet: c.sheet,
        line: c.line,
        column: c.positionsColumn,
        code: 'no_track',
        message: `the release ${catalogNumber} has ${plural(kept.length, 'track')}: no track ${missing.join(', ')}`,
        severity: 'error',
      });
      continue;
    }
    for (const i of targets) sheetCredits[i]!.push(c.credit);
  }
  const trackData = kept.map((r, i) => {
    const t = r.track;
    const { disc, implied, position } = places[i]!;
    const trackArtists = [...t.artists, ...sheetCredits[i]!.filter((c) => c.kind === 'artist').map((c) => c.credit as ArtistCredit)];
    const contributors = [...t.contributors, ...sheetCredits[i]!.filter((c) => c.kind === 'contributor').map((c) => c.credit as Contributor)];
    // Featuring alone on a track: its primary artists are the release's.
    const withPrimary = trackArtists.length > 0 && !trackArtists.some((a) => a.role === 'primary') ? [...(artists ?? []), ...trackArtists] : trackArtists;
    const ownArtists = withPrimary.length > 0 && !sameCredits(withPrimary, artists ?? []) ? withPrimary : undefined;
    return {
      file: t.file,
      title: t.title,
      version: t.version,
      disc: multiDisc ? disc : undefined,
      position: position === implied ? undefined : position,
      artists: ownArtists,
      contributors: contributors.length > 0 ? dedupe(contributors) : undefined,
      isrc: t.isrc,
      explicit: t.explicit !== undefined && t.explicit !== releaseExplicit ? t.explicit : undefined,
      audio_language: t.audio_language,
      preview_start_seconds: t.preview_start_seconds,
    };
  });
  const delivery = {
    release_date: values.release_date,
    preorder_date: values.preorder_date,
    price_tier: values.price_tier,
  };
  const data: Record<string, unknown> = {
    type: values.type ?? typeByCount(kept.length),
    title: values.title,
    version: values.version,
    artists,
    label: values.label,
    catalog_number: catalogNumber,
    upc: values.upc,
    genre: values.genre,
    subgenre: values.subgenre,
    language: values.language,
    p_line,
    c_line,
    original_release_date: values.original_release_date,
    explicit: releaseExplicit,
    tracks: trackData.length > 0 ? trackData : undefined,
    delivery: Object.values(delivery).some((v) => v !== undefined) ? delivery : undefined,
  };
  const release: ImportedRelease = {
    catalogNumber,
    catalogFromUpc,
    rows,
    data,
    tracks: kept.map((row) => ({ row })),
    failed: failedCredit || rows.some((r) => r.refused),
    partialOk: false,
  };
  // A release already refused is still held to the checks, quietly: --partial writes only what apply takes.
  release.partialOk = checkRelease(layout, release, problems, now, !release.failed);
  return release;
}

/** The release file's own checks on the data: its schema, then the submit's field rules that can never pass. */
function checkRelease(layout: Layout, release: ImportedRelease, problems: RowProblem[], now: Date, report: boolean): boolean {
  const sheet = layout.sheet.name;
  const first = release.rows[0]!;
  const at = (path: readonly PropertyKey[]): { row: MappedRow; field: Field | undefined } => {
    if (path[0] === 'tracks' && typeof path[1] === 'number') {
      const row = release.tracks[path[1]]?.row ?? first;
      return { row, field: TRACK_PATH_FIELDS[String(path[2])] };
    }
    if (path[0] === 'delivery') return { row: first, field: RELEASE_PATH_FIELDS[String(path[1])] };
    return { row: first, field: RELEASE_PATH_FIELDS[String(path[0])] };
  };
  const fail = (path: readonly PropertyKey[], code: string, message: string) => {
    if (!report) return;
    const { row, field } = at(path);
    row.refused = true;
    release.failed = true;
    problems.push({ sheet, line: row.line, column: field ? columnWords(layout, field) : undefined, code, message, severity: 'error' });
  };
  const plain: unknown = JSON.parse(JSON.stringify(release.data));
  const parsed = ReleaseFile.safeParse(plain);
  if (!parsed.success) {
    for (const p of problemsFromIssues(parsed.error.issues, plain)) fail(p.path, 'invalid', `${pathText(p.path)}: ${p.message}`);
    return false;
  }
  const { tracks, delivery, ...rest } = parsed.data;
  const { refused } = judgeAtDoor({
    release: { ...rest, delivery },
    tracks: tracks ?? [],
    locate: (path) => path,
    now,
  });
  for (const f of refused)
    fail(
      f.where.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      f.problem.code,
      f.problem.message,
    );
  return refused.length === 0;
}

const RELEASE_PATH_FIELDS: Record<string, Field> = {
  title: 'release_title',
  version: 'release_version',
  artists: 'release_artists',
  type: 'release_type',
  label: 'label',
  upc: 'upc',
  catalog_number: 'catalog_number',
  genre: 'genre',
  subgenre: 'subgenre',
  language: 'language',
  p_line: 'p_line',
  c_line: 'c_line',
  original_release_date: 'original_release_date',
  release_date: 'release_date',
  preorder_date: 'preorder_date',
  price_tier: 'price_tier',
};

const TRACK_PATH_FIELDS: Record<string, Field> = {
  title: 'track_title',
  version: 'track_version',
  artists: 'track_artists',
  contributors: 'participants',
  isrc: 'isrc',
  explicit: 'explicit',
  audio_language: 'audio_language',
  preview_start_seconds: 'preview_start',
  position: 'track_number',
  disc: 'disc',
};

/** Distributors' rule of thumb: up to 3 tracks a single, up to 6 an EP, more an album. */
function typeByCount(n: number): 'single' | 'ep' | 'album' {
  return n <= 3 ? 'single' : n <= 6 ? 'ep' : 'album';
}

function yearOfDate(iso: string | undefined): number | undefined {
  return iso === undefined ? undefined : Number(iso.slice(0, 4));
}

/** The primary artists every track names alike, when the sheet has no release artists column. */
function commonPrimaries(rows: readonly MappedRow[]): ArtistCredit[] | undefined {
  const lists = rows.map((r) => r.track.artists.filter((a) => a.role === 'primary'));
  if (lists.length === 0 || lists[0]!.length === 0) return undefined;
  return lists.every((l) => sameCredits(l, lists[0]!)) ? lists[0] : undefined;
}

function sameCredits(a: readonly ArtistCredit[], b: readonly ArtistCredit[]): boolean {
  return a.length === b.length && a.every((x, i) => x.name === b[i]!.name && x.role === b[i]!.role);
}

function dedupe(list: readonly Contributor[]): Contributor[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const k = `${c.role}\u0000${c.name.toLowerCase()}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Two copyright lines that agree: the same owner, and the same year where both give one. */
function sameLine(a: { year: number | undefined; owner: string }, b: { year: number | undefined; owner: string }): boolean {
  return a.owner === b.owner && (a.year === undefined || b.year === undefined || a.year === b.year);
}

/** A release value as the sheet wrote it, near enough, for a conflict's message. */
function show(v: ReleaseValues[keyof ReleaseValues]): string {
  if (typeof v === 'string') return `"${v}"`;
  if (Array.isArray(v)) return `"${v.map((a) => a.name).join('; ')}"`;
  if (typeof v === 'object' && v !== undefined) return `"${v.year === undefined ? v.owner : `${v.year} ${v.owner}`}"`;
  return String(v);
}
