// What the last `release apply` saw, per catalog number, so that `apply --plan` can tell a change
// in the files from a change made on the service since (someone edited the release on the web):
// a small JSON file (.reldist-state.json in the folder applied, or --state FILE) that a CI job
// keeps beside the files. Per release: digests of the file (its fields; its audio, when hashed)
// and of what the service held of what a file manages (release fields, delivery, video; tracks,
// when read). Status, review and timestamps are left out: a review is not a change to the release.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import type { ReleaseResource, TrackResource } from '../../contract/index.js';
import { UsageError } from '../errors.js';
import { writeWhole } from '../release-file/write-whole.js';
import { normaliseCatalogNumber } from './catalog-key.js';
import { METADATA_KEYS, TRACK_KEYS } from './forms.js';
import type { DesiredRelease } from './types.js';

export const STATE_FILE_NAME = '.reldist-state.json';

const Digest = z.string().regex(/^[0-9a-f]{64}$/);

const StateRecord = z.object({
  catalog_number: z.string(),
  release_id: z.number().int(),
  /** The file's fields (tracks' audio as named), and its audio's sha256s (null: not hashed, a release apply only reported). */
  file: Digest,
  audio: Digest.nullable(),
  /** The service's release fields, delivery and video; its tracks (null: not read, a release in review or further on). */
  release: Digest,
  tracks: Digest.nullable(),
  applied_at: z.string(),
});
export type StateRecord = z.infer<typeof StateRecord>;

const StateFile = z.object({
  format: z.literal(1),
  /** The service the releases are on: a state of another service says nothing about this one. */
  service: z.string(),
  releases: z.record(z.string(), StateRecord),
});
export type ApplyState = z.infer<typeof StateFile>;

export type Drift = 'none' | 'file' | 'service' | 'both' | 'untracked';

const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

export function fileDigests(desired: DesiredRelease): { file: string; audio: string | null } {
  const { plan } = desired;
  const file = digest({
    release: plan.release,
    tracks: plan.tracks.map((t) => ({ ...t.fields, file: t.stored ?? t.written })),
    delivery: plan.delivery ?? null,
    video: plan.video ?? null,
  });
  const hashed = desired.audioSha256.length === plan.tracks.length;
  return { file, audio: hashed ? digest(desired.audioSha256) : null };
}

export function serviceDigests(release: ReleaseResource): { release: string; tracks: string | null } {
  return {
    release: digest({ fields: METADATA_KEYS.map((k) => release[k] ?? null), delivery: release.delivery, video: release.video }),
    tracks: release.tracks === undefined ? null : digest(release.tracks.map(trackForm)),
  };
}

function trackForm(t: TrackResource): unknown {
  return { disc: t.disc, position: t.position, fields: TRACK_KEYS.map((k) => t[k] ?? null), sha256: t.file?.sha256 ?? null };
}

export function recordOf(catalogNumber: string, desired: DesiredRelease, release: ReleaseResource, now: Date): StateRecord {
  return { catalog_number: catalogNumber.trim(), release_id: release.id, ...fileDigests(desired), ...serviceDigests(release), applied_at: now.toISOString() };
}

/** Two digests differ only when both are known. */
const differs = (a: string | null, b: string | null) => a !== null && b !== null && a !== b;

/**
 * What changed since the last apply: the file, the service, both or none; `untracked` when the
 * state has no record of the release. A release gone from the service, or another release now
 * holding the catalog number, is a change on the service.
 */
export function driftOf(record: StateRecord | undefined, desired: DesiredRelease, release: ReleaseResource | undefined): Drift {
  if (record === undefined) return 'untracked';
  const f = fileDigests(desired);
  const fileChanged = record.file !== f.file || differs(record.audio, f.audio);
  let serviceChanged = true;
  if (release !== undefined && release.id === record.release_id) {
    const s = serviceDigests(release);
    serviceChanged = record.release !== s.release || differs(record.tracks, s.tracks);
  }
  return fileChanged ? (serviceChanged ? 'both' : 'file') : serviceChanged ? 'service' : 'none';
}

export const DRIFT_WORDS: Record<Exclude<Drift, 'none'>, string> = {
  file: 'file changed since the last apply',
  service: 'changed on the service since the last apply',
  both: 'file and service changed since the last apply',
  untracked: 'not in the state of the last apply',
};

export function stateKey(catalogNumber: string): string {
  return normaliseCatalogNumber(catalogNumber);
}

/** The state at `path`: an empty one when there is no file; a usage error naming the file when it is not one. */
export async function readState(path: string, service: string): Promise<{ state: ApplyState; found: boolean; otherService?: string }> {
  const empty: ApplyState = { format: 1, service, releases: {} };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: empty, found: false };
    throw new UsageError(`${path}: cannot read the apply state (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: z.ZodSafeParseResult<ApplyState>;
  try {
    parsed = StateFile.safeParse(JSON.parse(text));
  } catch {
    throw new UsageError(`${path}: not JSON; expected the state written by \`reldist release apply\``, 'delete it, and the next apply writes it afresh');
  }
  if (!parsed.success) {
    throw new UsageError(
      `${path}: not an apply state (${parsed.error.issues[0]?.message ?? 'unexpected content'})`,
      'delete it, and the next apply writes it afresh',
    );
  }
  if (parsed.data.service !== service) return { state: empty, found: true, otherService: parsed.data.service };
  return { state: parsed.data, found: true };
}

/** Written whole (beside it, then renamed over it), so a killed run leaves the old state or the new. */
export async function writeState(path: string, state: ApplyState): Promise<void> {
  await writeWhole(path, `${JSON.stringify(state, null, 1)}\n`);
}
