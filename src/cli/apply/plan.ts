// The planning core of `release apply`: compares what a release file wants with what the service
// has and says what to send. Pure: no HTTP, no files; the caller hashes the audio (desired.ts).
//
// Rules (docs/release-file.md is the format):
// - A field the file leaves out is left as it is on the service (a UPC or ISRC assigned at
//   submit, a genre set by hand); a field the file sets to null clears it.
// - Values are compared in the form the service stores them, so a release that has converged
//   shows no change: text trimmed, "" as null, genre without case, UPC as a product (012345678905
//   = 0012345678905), ISRC compact (GB-NLR-26-00001 = GBNLR2600001), platform and country lists
//   as sets (the service drops repeats).
// - Tracks are matched by disc and position (the file's order gives the positions, disc 1 unless
//   it says otherwise); audio is compared by sha256, so only audio that differs or is missing on
//   the service is uploaded. Tracks the service has beyond the file's are removed; a file without
//   tracks leaves the service's alone. A track without its own artists or explicit, which took the
//   release's, follows when the file changes the release's.
// - Only a draft, or a rejected release (editing makes it a draft again), is edited; a release in
//   review or further on is skipped: never edited behind a reviewer's back, never redelivered.
import type {
  ArtistCredit, Contributor, CreateReleaseRequest, EntityId, ReleaseResource, ReleaseStatus, ReplaceReleaseTracksRequest,
  ReplaceReleaseTracksTrackInput, TrackResource, UpdateReleaseDeliveryRequest, UpdateReleaseMetadataRequest, UpdateReleaseVideoRequest,
} from '../../contract/index.js';
import { checkIsrc, checkUpc } from '../../codes/index.js';
import type { PlannedTrack, ReleasePlan } from '../release-file/load.js';

export type ApplyAction = 'create' | 'update' | 'unchanged' | 'skip';
export type ChangeKind = 'metadata' | 'tracks' | 'upload' | 'delivery' | 'video' | 'submit';

/** One difference, for the plan display and the report. */
export interface FieldChange {
  /** Machine path, as in the release file: "title", "tracks.1.audio", "delivery.release_date". */
  path: string;
  /** For people: "title", "track 2 audio", "disc 2 track 1 title", "track 5 removed". */
  label: string;
  /** The service's value (undefined when there is none: a new release or track). */
  before: unknown;
  /** The file's value (undefined for a removed track). */
  after: unknown;
}

export type MetadataChange =
  | { kind: 'metadata'; op: 'create'; fields: FieldChange[]; body: CreateReleaseRequest }
  | { kind: 'metadata'; op: 'update'; fields: FieldChange[]; body: UpdateReleaseMetadataRequest };

export interface UploadChange {
  kind: 'upload';
  fields: FieldChange[];
  /** Indexes into the file's tracks (ReleasePlan.tracks) whose audio must be uploaded. */
  trackIndexes: number[];
}

export interface TracksChange {
  kind: 'tracks';
  fields: FieldChange[];
  /**
   * The body of PUT …/tracks, once the uploads are done: `fileKeys` maps each index of
   * UploadChange.trackIndexes to its new file key. Tracks whose audio is unchanged keep their id
   * (and so their file); throws when a needed key is missing.
   */
  buildBody(fileKeys: ReadonlyMap<number, string>): ReplaceReleaseTracksRequest;
}

export interface DeliveryChange {
  kind: 'delivery';
  fields: FieldChange[];
  body: UpdateReleaseDeliveryRequest;
}

export interface VideoChange {
  kind: 'video';
  fields: FieldChange[];
  body: UpdateReleaseVideoRequest;
}

export interface SubmitChange {
  kind: 'submit';
  fields: FieldChange[];
}

/** In the order they are to be carried out. */
export type Change = MetadataChange | UploadChange | TracksChange | DeliveryChange | VideoChange | SubmitChange;

export interface ApplyPlan {
  action: ApplyAction;
  /** Why a release is skipped, or why an unchanged one will not be submitted. */
  reason?: string;
  changes: Change[];
  /** Submit after the changes (asked with --submit, and the release is a draft by then). */
  submit: boolean;
  /** The existing release, when there is one. */
  releaseId?: EntityId;
  status?: ReleaseStatus;
}

export interface DesiredRelease {
  plan: ReleasePlan;
  /** The sha256 (64 lowercase hex digits) of each track's local audio, in the order of plan.tracks. */
  audioSha256: readonly string[];
  /**
   * Each track's title for a track new on the service: the file's, else the audio's tags, else its
   * name (titleOf). A track the service already has keeps its title unless the file sets one.
   */
  defaultTitles: readonly string[];
}

export interface ExistingRelease {
  release: ReleaseResource;
  tracks: readonly TrackResource[];
}

export interface PlanOptions {
  /** --submit */
  submit: boolean;
}

/** States apply edits; every other state is skipped with its reason. */
export const EDITABLE_STATUSES: readonly ReleaseStatus[] = ['draft', 'rejected'];

const SKIP_REASONS: Record<ReleaseStatus, string> = {
  draft: '',
  rejected: '',
  in_review: "in review: never edited behind the reviewer's back (withdraw it to edit it)",
  approved: 'approved: on its way to the stores, no longer edited',
  delivered: 'delivered: apply does not redeliver; correct it with `reldist release edit`',
  live: 'live: apply does not redeliver; correct it with `reldist release edit`',
  taken_down: 'taken down: it can no longer be changed',
};

export function planRelease(desired: DesiredRelease, existing: ExistingRelease | undefined, options: PlanOptions): ApplyPlan {
  const { plan } = desired;
  if (desired.audioSha256.length !== plan.tracks.length || desired.defaultTitles.length !== plan.tracks.length) {
    throw new RangeError('planRelease: audioSha256 and defaultTitles need one entry per track of the plan');
  }
  return existing === undefined ? planCreate(desired, options) : planUpdate(desired, existing, options);
}

/** The change of a kind in a plan, typed. */
export function changeOf<K extends ChangeKind>(plan: ApplyPlan, kind: K): Extract<Change, { kind: K }> | undefined {
  return plan.changes.find((c): c is Extract<Change, { kind: K }> => c.kind === kind);
}

// ---- create ---------------------------------------------------------------------------------

function planCreate(desired: DesiredRelease, options: PlanOptions): ApplyPlan {
  const { plan } = desired;
  const changes: Change[] = [];
  const metadataFields = definedKeys(plan.release).map((k) => fieldChange(k, k, undefined, plan.release[k]));
  changes.push({ kind: 'metadata', op: 'create', fields: metadataFields, body: plan.release });

  const slots = trackSlots(plan.tracks);
  const multiDisc = slots.some((s) => s.disc !== 1);
  if (plan.tracks.length > 0) {
    const indexes = plan.tracks.map((_, i) => i);
    changes.push({
      kind: 'upload',
      fields: indexes.map((i) => fieldChange(`tracks.${i}.audio`, `${trackName(slots[i]!, multiDisc)} audio`, undefined, desired.audioSha256[i])),
      trackIndexes: indexes,
    });
    changes.push({
      kind: 'tracks',
      fields: indexes.map((i) => fieldChange(`tracks.${i}`, `${trackName(slots[i]!, multiDisc)} added`, undefined, titleFor(desired, i, undefined))),
      buildBody: tracksBodyBuilder(desired, slots, [], new Set(indexes)),
    });
  }
  if (plan.delivery && definedKeys(plan.delivery).length > 0) {
    changes.push({ kind: 'delivery', fields: sectionFields('delivery', plan.delivery), body: plan.delivery });
  }
  if (plan.video && definedKeys(plan.video).length > 0) {
    changes.push({ kind: 'video', fields: sectionFields('video', plan.video), body: plan.video });
  }
  if (options.submit) changes.push(submitChange('draft'));
  return { action: 'create', changes, submit: options.submit };
}

function sectionFields(section: string, body: object): FieldChange[] {
  return Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => fieldChange(`${section}.${k}`, `${section}.${k}`, undefined, v));
}

// ---- update ---------------------------------------------------------------------------------

function planUpdate(desired: DesiredRelease, existing: ExistingRelease, options: PlanOptions): ApplyPlan {
  const { release } = existing;
  const base = { releaseId: release.id, status: release.status };
  if (!EDITABLE_STATUSES.includes(release.status)) {
    // Already submitted (or further on): --submit asks for nothing more.
    return { ...base, action: 'skip', reason: SKIP_REASONS[release.status], changes: [], submit: false };
  }

  const changes: Change[] = [];
  const metadata = metadataChange(desired.plan.release, release);
  if (metadata) changes.push(metadata);
  changes.push(...trackChanges(desired, existing));
  const delivery = deliveryChange(desired.plan.delivery, release.delivery);
  if (delivery) changes.push(delivery);
  const video = videoChange(desired.plan.video, release.video);
  if (video) changes.push(video);

  const action: ApplyAction = changes.length > 0 ? 'update' : 'unchanged';
  // A rejected release becomes a draft by being edited; unchanged, the service refuses the submit.
  const submittable = release.status === 'draft' || action === 'update';
  const submit = options.submit && submittable;
  if (submit) changes.push(submitChange(release.status));
  const reason = options.submit && !submittable
    ? 'rejected and unchanged: change what the review asks for before submitting it again'
    : undefined;
  return { ...base, action, ...(reason ? { reason } : {}), changes, submit };
}

function submitChange(status: ReleaseStatus): SubmitChange {
  return { kind: 'submit', fields: [fieldChange('status', 'status', status, 'in_review')] };
}

// ---- metadata -------------------------------------------------------------------------------

type MetadataKey = keyof CreateReleaseRequest & keyof ReleaseResource;

/** Each release field in its stored, comparable form. */
const METADATA_FORMS: { [K in MetadataKey]: (v: CreateReleaseRequest[K] | ReleaseResource[K]) => unknown } = {
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
  artwork: (v) => (v == null ? null : { url: v.url, width: v.width, height: v.height, format: v.format, color_space: v.color_space }),
};

const METADATA_KEYS = Object.keys(METADATA_FORMS) as MetadataKey[];

function metadataChange(want: CreateReleaseRequest, have: ReleaseResource): MetadataChange | undefined {
  const fields: FieldChange[] = [];
  const body: UpdateReleaseMetadataRequest = {};
  for (const key of METADATA_KEYS) {
    const after = want[key];
    if (after === undefined) continue;
    const form = METADATA_FORMS[key] as (v: unknown) => unknown;
    if (same(form(after), form(have[key]))) continue;
    fields.push(fieldChange(key, key, have[key], after));
    (body as Record<string, unknown>)[key] = after;
  }
  return fields.length > 0 ? { kind: 'metadata', op: 'update', fields, body } : undefined;
}

// ---- tracks ---------------------------------------------------------------------------------

/** Where a track of the file goes: the disc it names (else 1) and its position (else the next on that disc). */
export interface TrackSlot {
  disc: number;
  position: number;
}

/** Positions as the service assigns them, so that a file without positions matches what it made. */
export function trackSlots(tracks: readonly PlannedTrack[]): TrackSlot[] {
  const last = new Map<number, number>();
  return tracks.map((t) => {
    const disc = t.fields.disc ?? 1;
    const position = t.fields.position ?? (last.get(disc) ?? 0) + 1;
    last.set(disc, Math.max(last.get(disc) ?? 0, position));
    return { disc, position };
  });
}

const slotKey = (s: TrackSlot) => `${s.disc}:${s.position}`;

function trackName(s: TrackSlot, multiDisc: boolean): string {
  return multiDisc ? `disc ${s.disc} track ${s.position}` : `track ${s.position}`;
}

type TrackFieldKey = 'title' | 'version' | 'artists' | 'contributors' | 'isrc' | 'explicit' | 'audio_language' | 'preview_start_seconds';

/** Each track field in its stored, comparable form. */
const TRACK_FORMS: Record<TrackFieldKey, (v: never) => unknown> = {
  title: (v: string) => v.trim(),
  version: (v: string | null | undefined) => blankToNull(v),
  artists: (v: ArtistCredit[]) => credits(v),
  contributors: (v: Contributor[]) => v.map((c) => ({ name: c.name.trim(), role: c.role })),
  isrc: (v: string | null | undefined) => isrcForm(blankToNull(v)),
  explicit: (v: string) => v,
  audio_language: (v: string | null | undefined) => blankToNull(v),
  preview_start_seconds: (v: number | null | undefined) => v ?? null,
};

const TRACK_KEYS = Object.keys(TRACK_FORMS) as TrackFieldKey[];

/** An audio file on the service counts only when it is there and was accepted. */
function storedSha256(track: TrackResource | undefined): string | null {
  return track?.file && track.file.state === 'ready' ? track.file.sha256 : null;
}

function trackChanges(desired: DesiredRelease, existing: ExistingRelease): Change[] {
  const { plan } = desired;
  // A file without tracks says nothing about them (a release file may carry metadata only).
  if (plan.tracks.length === 0) return [];
  const existingTracks = existing.tracks;
  const slots = trackSlots(plan.tracks);
  const multiDisc = slots.some((s) => s.disc !== 1) || existingTracks.some((t) => t.disc !== 1);
  const byKey = new Map(existingTracks.map((t) => [slotKey(t), t]));
  const matched: (TrackResource | undefined)[] = slots.map((s) => byKey.get(slotKey(s)));
  const wanted = plan.tracks.map((t, i) => ({ ...t.fields, ...inheritedFields(t, matched[i], plan.release, existing.release) }));

  const fields: FieldChange[] = [];
  const uploadFields: FieldChange[] = [];
  const uploads = new Set<number>();
  wanted.forEach((want, i) => {
    const name = trackName(slots[i]!, multiDisc);
    const have = matched[i];
    const sha = desired.audioSha256[i]!;
    if (sha !== storedSha256(have)) {
      uploads.add(i);
      uploadFields.push(fieldChange(`tracks.${i}.audio`, `${name} audio`, have?.file?.sha256 ?? undefined, sha));
    }
    if (!have) {
      fields.push(fieldChange(`tracks.${i}`, `${name} added`, undefined, titleFor(desired, i, undefined)));
      return;
    }
    for (const key of TRACK_KEYS) {
      const after = want[key];
      if (after === undefined) continue;
      const form = TRACK_FORMS[key] as (v: unknown) => unknown;
      if (!same(form(after), form(have[key]))) fields.push(fieldChange(`tracks.${i}.${key}`, `${name} ${key}`, have[key], after));
    }
  });
  const kept = new Set(matched.filter((t): t is TrackResource => t !== undefined).map((t) => t.id));
  const removed = existingTracks
    .filter((t) => !kept.has(t.id))
    .sort((a, b) => a.disc - b.disc || a.position - b.position);
  for (const t of removed) {
    fields.push(fieldChange('tracks', `${trackName(t, multiDisc)} removed`, t.title, undefined));
  }

  if (fields.length === 0 && uploads.size === 0) return [];
  const changes: Change[] = [];
  if (uploads.size > 0) changes.push({ kind: 'upload', fields: uploadFields, trackIndexes: [...uploads] });
  changes.push({
    kind: 'tracks',
    // Audio differences are listed once, under the upload.
    fields,
    buildBody: tracksBodyBuilder(desired, slots, matched, uploads, wanted),
  });
  return changes;
}

/** Track fields that default to the release's: artists and explicit. */
const INHERITED_KEYS = ['artists', 'explicit'] as const;

/**
 * A track the file leaves without artists (or explicit) took the release's when it was made; when
 * the file changes the release's, such a track follows, as it would in a release made afresh. A
 * track whose value was set otherwise (by hand, or by an earlier file) is left alone.
 */
function inheritedFields(
  t: PlannedTrack,
  have: TrackResource | undefined,
  wantRelease: CreateReleaseRequest,
  haveRelease: ReleaseResource,
): Partial<Pick<PlannedTrack['fields'], (typeof INHERITED_KEYS)[number]>> {
  const out: Record<string, unknown> = {};
  if (!have) return out;
  for (const key of INHERITED_KEYS) {
    const want = wantRelease[key];
    if (t.fields[key] !== undefined || want === undefined) continue;
    const form = METADATA_FORMS[key] as (v: unknown) => unknown;
    const releaseChanges = !same(form(want), form(haveRelease[key]));
    const trackFollowed = same(form(have[key]), form(haveRelease[key]));
    if (releaseChanges && trackFollowed) out[key] = want;
  }
  return out;
}

function titleFor(desired: DesiredRelease, i: number, have: TrackResource | undefined): string {
  return desired.plan.tracks[i]!.fields.title ?? have?.title ?? desired.defaultTitles[i]!;
}

function tracksBodyBuilder(
  desired: DesiredRelease,
  slots: readonly TrackSlot[],
  matched: readonly (TrackResource | undefined)[],
  uploads: ReadonlySet<number>,
  wanted: readonly PlannedTrack['fields'][] = desired.plan.tracks.map((t) => t.fields),
): TracksChange['buildBody'] {
  return (fileKeys) => ({
    tracks: desired.plan.tracks.map((t, i): ReplaceReleaseTracksTrackInput => {
      const have = matched[i];
      const { title: _title, disc: _disc, position: _position, ...fields } = wanted[i]!;
      let fileKey: string | undefined;
      if (uploads.has(i)) {
        fileKey = fileKeys.get(i);
        if (fileKey === undefined) throw new Error(`no file key for the upload of tracks.${i} (${t.written})`);
      }
      return {
        ...(have ? { id: have.id } : {}),
        ...(fileKey !== undefined ? { file_key: fileKey } : {}),
        ...withoutUndefined(fields),
        title: titleFor(desired, i, have),
        // Always explicit: the service's defaults would number discs differently.
        disc: slots[i]!.disc,
        position: slots[i]!.position,
      };
    }),
  });
}

// ---- delivery and video ---------------------------------------------------------------------

type Delivery = ReleaseResource['delivery'];
type DeliveryKey = keyof Delivery;

const DELIVERY_FORMS: { [K in DeliveryKey]: (v: NonNullable<UpdateReleaseDeliveryRequest[K]> | Delivery[K] | null) => unknown } = {
  platforms: (v) => (v === 'all' ? 'all' : sortedSet(v ?? [])),
  territories: (v) => (v == null ? null : { mode: v.mode, countries: sortedSet(v.countries ?? []) }),
  release_date: (v) => v ?? null,
  preorder_date: (v) => v ?? null,
  price_tier: (v) => v ?? null,
};

function deliveryChange(want: UpdateReleaseDeliveryRequest | undefined, have: Delivery): DeliveryChange | undefined {
  if (!want) return undefined;
  const fields: FieldChange[] = [];
  const body: UpdateReleaseDeliveryRequest = {};
  for (const key of Object.keys(DELIVERY_FORMS) as DeliveryKey[]) {
    const after = want[key];
    if (after === undefined) continue;
    const form = DELIVERY_FORMS[key] as (v: unknown) => unknown;
    if (same(form(after), form(have[key]))) continue;
    fields.push(fieldChange(`delivery.${key}`, `delivery.${key}`, have[key], after));
    (body as Record<string, unknown>)[key] = after;
  }
  return fields.length > 0 ? { kind: 'delivery', fields, body } : undefined;
}

function videoChange(want: UpdateReleaseVideoRequest | undefined, have: ReleaseResource['video']): VideoChange | undefined {
  if (!want) return undefined;
  const fields: FieldChange[] = [];
  const body: UpdateReleaseVideoRequest = {};
  const flag = (path: string, after: unknown, before: unknown) => {
    if (after === undefined || after === before) return false;
    fields.push(fieldChange(path, path, before, after));
    return true;
  };
  if (flag('video.enabled', want.enabled, have.enabled)) body.enabled = want.enabled;
  if (flag('video.art_tracks', want.art_tracks, have.art_tracks)) body.art_tracks = want.art_tracks;
  const contentId: NonNullable<UpdateReleaseVideoRequest['content_id']> = {};
  if (flag('video.content_id.enabled', want.content_id?.enabled, have.content_id.enabled)) contentId.enabled = want.content_id?.enabled;
  if (flag('video.content_id.policy', want.content_id?.policy, have.content_id.policy)) contentId.policy = want.content_id?.policy;
  if (Object.keys(contentId).length > 0) body.content_id = contentId;
  return fields.length > 0 ? { kind: 'video', fields, body } : undefined;
}

// ---- comparable forms -----------------------------------------------------------------------

/** Empty text means "not set" on the service. */
export function blankToNull(v: string | null | undefined): string | null {
  if (v == null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** A valid UPC as its 14-digit product code; anything else as written (the service keeps it so). */
function upcForm(v: string | null): string | null {
  if (v === null) return null;
  return checkUpc(v).gtin14 ?? v;
}

/** A valid ISRC compact; the year given only changes warnings, never the compact form. */
function isrcForm(v: string | null): string | null {
  if (v === null) return null;
  return checkIsrc(v, { currentYear: 2000 }).normalized ?? v;
}

function credits(list: readonly ArtistCredit[]): unknown {
  return list.map((a) => ({ name: a.name.trim(), role: a.role, artist_id: a.artist_id === undefined ? null : String(a.artist_id) }));
}

function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function fieldChange(path: string, label: string, before: unknown, after: unknown): FieldChange {
  return { path, label, before, after };
}

function definedKeys<T extends object>(o: T): (keyof T & string)[] {
  return (Object.keys(o) as (keyof T & string)[]).filter((k) => o[k] !== undefined);
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
