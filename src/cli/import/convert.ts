// A spreadsheet to release files' data, in memory: read the sheets, find the header and template,
// read each row, group the rows into releases, credit the contributor sheet, and say where each
// track's audio comes from. Nothing is written here (write-files.ts does); every problem is
// collected with its line, sheet and column.
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { FIELD_WORDS, type Field } from './columns.js';
import { audioSource, indexAudioDir, type AudioIndex } from './audio.js';
import { findContributorSheet, readContributorSheet, type SheetCredit } from './contributor-sheet.js';
import { findLayout, type Layout } from './find-header.js';
import { groupReleases, type ImportedRelease } from './group.js';
import { mapRows, type RowProblem } from './map-rows.js';
import { readSheets } from './read-rows.js';
import { GENERIC, TEMPLATES, type Template } from './templates.js';
import { isAudioAddress } from '../release-file/audio-address.js';

export interface ConvertOptions {
  template: 'auto' | 'generic' | keyof typeof TEMPLATES;
  /** Where the release files go (audio paths are written relative to it). */
  dir: string;
  audioDir?: string | undefined;
  now: Date;
}

export interface Converted {
  layout: Layout;
  /** Data rows read on the main sheet (blank rows not counted), and on the contributor sheet. */
  rows: number;
  contributorSheet: { name: string | undefined; rows: number } | undefined;
  /** A workbook's other sheets that hold anything (instructions, lists of values): named, not read. */
  sheetsNotRead: string[];
  releases: ImportedRelease[];
  problems: RowProblem[];
  /** Tracks by where their audio comes from. */
  audio: { files: number; urls: number; none: number };
}

/** Without these no release file can be written: the header must name them. */
const REQUIRED: readonly Field[] = ['release_title', 'label', 'track_title'];

export async function convert(path: string, o: ConvertOptions): Promise<Converted> {
  const sheets = await readSheets(path);
  const chosen: Template | undefined = o.template === 'auto' ? undefined : o.template === 'generic' ? GENERIC : TEMPLATES[o.template];
  const layout = findLayout(sheets, chosen);
  if (layout === undefined)
    throw new UsageError(
      `${path}: no header row found (a row naming columns such as Release title, UPC, Catalog number, Track title, ISRC)`,
      'see `reldist release import --help` for the columns read; a header may be anywhere in the first 50 rows',
    );
  const missing = REQUIRED.filter((f) => !layout.fields.has(f));
  if (!layout.fields.has('release_artists') && !layout.fields.has('track_artists') && !layout.fields.has('participants')) missing.push('release_artists');
  if (!layout.fields.has('catalog_number') && !layout.fields.has('upc')) missing.push('catalog_number');
  if (missing.length > 0) {
    const where = `${layout.sheet.name ? `sheet ${layout.sheet.name}, ` : ''}line ${layout.sheet.lines[layout.headerRow]}`;
    throw new UsageError(
      `${path}: no column for the ${missing.map((f) => (f === 'catalog_number' ? 'catalog number or UPC' : FIELD_WORDS[f])).join(', ')} in the header (${where}); nothing was written`,
      `its columns: ${layout.sheet.rows[layout.headerRow]!.filter((c) => c !== undefined && String(c).trim() !== '').join(', ')}`,
    );
  }
  const problems: RowProblem[] = [];
  const index: AudioIndex | undefined = o.audioDir === undefined ? undefined : await readAudioDir(o.audioDir);
  const dir = resolve(o.dir);
  const rows = mapRows(
    layout,
    { date1904: layout.sheet.date1904, currentYear: o.now.getUTCFullYear(), audio: (named) => audioSource(named, index, dir) },
    problems,
  );
  let credits: SheetCredit[] = [];
  let contributorSheet: Converted['contributorSheet'];
  const spec = layout.template.contributorSheet;
  const extra = spec ? findContributorSheet(sheets, layout.sheet, spec) : undefined;
  if (spec && extra) {
    const read = readContributorSheet(extra, spec, problems);
    credits = read.credits;
    contributorSheet = { name: extra.name, rows: read.rows };
  }
  const releases = groupReleases(layout, rows, problems, o.now, credits);
  const sheetsNotRead = sheets
    .filter((s) => s !== layout.sheet && s !== extra && s.rows.some((r) => r.some((c) => c !== undefined && String(c).trim() !== '')))
    .map((s) => s.name ?? '');

  const audio = { files: 0, urls: 0, none: 0 };
  for (const release of releases)
    for (const t of (release.data.tracks as { file?: string }[] | undefined) ?? []) {
      if (t.file === undefined) audio.none++;
      else if (isAudioAddress(t.file)) audio.urls++;
      else audio.files++;
    }
  problems.sort((a, b) => (a.sheet === b.sheet ? 0 : a.sheet === layout.sheet.name ? -1 : 1) || a.line - b.line);
  return { layout, rows: rows.length, contributorSheet, sheetsNotRead, releases, problems, audio };
}

async function readAudioDir(dir: string): Promise<AudioIndex> {
  try {
    return await indexAudioDir(resolve(dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--audio-dir ${dir}: ${code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : `cannot be read (${code ?? 'error'})`}`,
    );
  }
}
