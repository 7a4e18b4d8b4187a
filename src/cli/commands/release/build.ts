// Turns release flags into request bodies, checked against the contract's schemas; a bad value
// is reported against the flag that carried it. Loaded inside `run` only (it loads zod).
import type { z } from 'zod';
import { CreateReleaseRequest, UpdateReleaseDeliveryRequest, UpdateReleaseMetadataRequest, UpdateReleaseVideoRequest } from '../../../contract/index.js';
import { UsageError } from '../../errors.js';
import { pathText, problemsFromIssues } from '../../shared/field-problems.js';
import { FLAG_OF_FIELD, type DeliveryFlags, type MetadataFlags, type VideoFlags } from './flags.js';

type Metadata = z.infer<typeof UpdateReleaseMetadataRequest>;
type Delivery = z.infer<typeof UpdateReleaseDeliveryRequest>;
type Video = z.infer<typeof UpdateReleaseVideoRequest>;

function copyrightLine(value: string, flag: string): { year: number; owner: string } {
  const m = /^\s*(\d{4})\s+(.+?)\s*$/.exec(value);
  if (!m) throw new UsageError(`${flag}: expected "<year> <owner>", e.g. "2026 Northern Lights Records", got "${value}"`);
  return { year: Number(m[1]), owner: m[2]! };
}

export function yesNo(value: string, flag: string): boolean {
  const v = value.trim().toLowerCase();
  if (['yes', 'y', 'true', 'on', '1'].includes(v)) return true;
  if (['no', 'n', 'false', 'off', '0'].includes(v)) return false;
  throw new UsageError(`${flag}: expected yes or no, got "${value}"`);
}

/** Only the fields whose flags were given. */
export function metadataFromFlags(f: MetadataFlags): Metadata {
  const out: Record<string, unknown> = {};
  const set = (key: string, v: unknown) => {
    if (v !== undefined) out[key] = v;
  };
  set('type', f.type?.trim().toLowerCase());
  set('title', f.title);
  set('version', f.releaseVersion);
  const credits = [
    ...(f.artist ?? []).map((name) => ({ name, role: 'primary' })),
    ...(f.featuring ?? []).map((name) => ({ name, role: 'featuring' })),
    ...(f.with ?? []).map((name) => ({ name, role: 'with' })),
    ...(f.remixer ?? []).map((name) => ({ name, role: 'remixer' })),
  ];
  if (credits.length > 0) out.artists = credits;
  set('label', f.label);
  set('catalog_number', f.catalogNumber);
  set('upc', f.upc);
  set('genre', f.genre);
  set('subgenre', f.subgenre);
  set('language', f.language);
  if (f.pLine !== undefined) out.p_line = copyrightLine(f.pLine, '--p-line');
  if (f.cLine !== undefined) out.c_line = copyrightLine(f.cLine, '--c-line');
  set('original_release_date', f.originalReleaseDate);
  set('explicit', f.explicit?.trim().toLowerCase().replace(/-/g, '_'));
  return checkFlags(UpdateReleaseMetadataRequest, out);
}

export function deliveryFromFlags(f: DeliveryFlags): Delivery {
  const out: Record<string, unknown> = {};
  if (f.releaseDate !== undefined) out.release_date = f.releaseDate;
  if (f.preorderDate !== undefined) out.preorder_date = f.preorderDate;
  if (f.platforms !== undefined) {
    const list = f.platforms
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    out.platforms = list.length === 1 && list[0]!.toLowerCase() === 'all' ? 'all' : list;
  }
  if (f.territories !== undefined) {
    const m = /^\s*(worldwide|include|exclude)\s*(?::\s*(.*))?$/i.exec(f.territories);
    if (!m || (m[1]!.toLowerCase() !== 'worldwide' && !m[2])) {
      throw new UsageError(`--territories: expected worldwide, include:DE,FR or exclude:KP, got "${f.territories}"`);
    }
    const countries = (m[2] ?? '')
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    out.territories = { mode: m[1]!.toLowerCase(), countries };
  }
  if (f.priceTier !== undefined) out.price_tier = f.priceTier.trim().toLowerCase();
  return checkFlags(UpdateReleaseDeliveryRequest, out);
}

export function videoFromFlags(f: VideoFlags): Video {
  const out: Record<string, unknown> = {};
  if (f.videoEnabled !== undefined) out.enabled = yesNo(f.videoEnabled, '--video-enabled');
  if (f.artTracks !== undefined) out.art_tracks = yesNo(f.artTracks, '--art-tracks');
  if (f.contentId !== undefined) {
    const v = f.contentId.trim().toLowerCase();
    out.content_id = v === 'off' || v === 'no' ? { enabled: false } : { enabled: true, policy: v };
  }
  return checkFlags(UpdateReleaseVideoRequest, out);
}

/** Validates a body built from flags; the first problem is reported against its flag. */
function checkFlags<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const problems = problemsFromIssues(r.error.issues, value);
  const first = problems[0]!;
  const flag = FLAG_OF_FIELD[String(first.path[0])] ?? String(first.path[0]);
  const where = first.path.length > 1 ? ` (${pathText(first.path)})` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw new UsageError(`${flag}${where}: ${first.message}${more}`);
}

export const REQUIRED_CREATE_FLAGS: [keyof z.infer<typeof CreateReleaseRequest>, string][] = [
  ['type', '--type'],
  ['title', '--title'],
  ['artists', '--artist'],
  ['label', '--label'],
];

/** A create request from flags alone: every missing required field is named by its flag. */
export function createFromFlags(meta: Metadata): z.infer<typeof CreateReleaseRequest> {
  const missing = REQUIRED_CREATE_FLAGS.filter(([k]) => meta[k] === undefined || meta[k] === null).map(([, flag]) => flag);
  if (missing.length > 0) {
    throw new UsageError(
      `missing ${missing.join(', ')}: a release needs a type, a title, a primary artist and a label`,
      'pass them as flags, give a release file with --file, or run on a terminal without --no-input for the wizard',
    );
  }
  return checkFlags(CreateReleaseRequest, dropNulls(meta));
}

function dropNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function isEmpty(o: object | undefined): boolean {
  return !o || Object.keys(o).length === 0;
}
