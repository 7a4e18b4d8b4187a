// What a write changed, field by field, between two readings of a release or its tracks: the
// payloads of release.updated and release.tracks_changed. Pure.
import type { FieldChange } from '../../contract/events.js';
import type { ReleaseResource, TrackResource } from '../../contract/resources.js';

/** Fields that are not the release's content: its identity, its tracks (their own event) and times. */
const RELEASE_SKIP = new Set(['id', 'tracks', 'track_count', 'created_at', 'updated_at', 'submitted_at']);
const TRACK_SKIP = new Set(['id', 'release_id', 'created_at', 'updated_at', 'file']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * Whether two values read from JSON serialise alike (what comparing their JSON.stringify texts
 * tells, keys in order included), without building the texts.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * Changes between two objects into `out`: nested objects by their fields (delivery.release_date),
 * anything else (lists) whole. Runs with every edit, inside its transaction: no allocation but
 * the changes themselves.
 */
function diffObjects(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  skip: ReadonlySet<string>,
  prefix: string,
  out: FieldChange[],
): FieldChange[] {
  for (const key in after) compareField(before, after, key, skip, prefix, out);
  // Fields only the old value has (a field the stored data did not have yet).
  for (const key in before) if (!(key in after)) compareField(before, after, key, skip, prefix, out);
  return out;
}

function compareField(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  key: string,
  skip: ReadonlySet<string>,
  prefix: string,
  out: FieldChange[],
): void {
  if (prefix === '' && skip.has(key)) return;
  const a = before[key] ?? null;
  const b = after[key] ?? null;
  if (a === b) return;
  if (isPlainObject(a) && isPlainObject(b)) diffObjects(a, b, skip, `${prefix}${key}.`, out);
  else if (!same(a, b)) out.push({ field: `${prefix}${key}`, old: a, new: b });
}

/** The release's own fields a write changed (status included), without its tracks. */
export function releaseChanges(before: ReleaseResource, after: ReleaseResource): FieldChange[] {
  return diffObjects(before, after, RELEASE_SKIP, '', []);
}

const fileOf = (t: TrackResource) => (t.file ? { key: t.file.key, filename: t.file.filename } : null);
const refOf = (t: TrackResource) => ({ track_id: t.id, disc: t.disc, position: t.position, title: t.title });

export interface TrackChanges {
  added: ReturnType<typeof refOf>[];
  removed: ReturnType<typeof refOf>[];
  changed: { track_id: TrackResource['id']; changes: FieldChange[] }[];
}

/** Tracks added, removed, and changed (by id) between two track lists. */
export function trackChanges(before: readonly TrackResource[], after: readonly TrackResource[]): TrackChanges {
  const old = new Map(before.map((t) => [t.id, t]));
  const kept = new Set<TrackResource['id']>();
  const out: TrackChanges = { added: [], removed: [], changed: [] };
  for (const t of after) {
    const o = old.get(t.id);
    if (!o) {
      out.added.push(refOf(t));
      continue;
    }
    kept.add(t.id);
    const changes = diffObjects(o, t, TRACK_SKIP, '', []);
    if (!same(fileOf(o), fileOf(t))) changes.push({ field: 'file', old: fileOf(o), new: fileOf(t) });
    if (changes.length > 0) out.changed.push({ track_id: t.id, changes });
  }
  for (const t of before) if (!kept.has(t.id)) out.removed.push(refOf(t));
  return out;
}
