// The planning core of `release apply`: compares what a release file wants with what the service
// has and says what to send. Pure: no HTTP, no files; the caller hashes the audio (desired.ts).
//
// Rules (docs/release-file.md is the format):
// - A field the file leaves out is left as it is on the service (a UPC or ISRC assigned at
//   submit, a genre set by hand); a field the file sets to null clears it.
// - Values are compared in the form the service stores them (forms.ts), so a release that has
//   converged shows no change.
// - Tracks are matched by disc and position (the file's order gives the positions, disc 1 unless
//   it says otherwise); audio is compared by sha256, so only audio that differs or is missing on
//   the service is uploaded. Tracks the service has beyond the file's are removed; a file without
//   tracks leaves the service's alone. A track without its own artists or explicit, which took the
//   release's, follows when the file changes the release's.
// - Only a draft, or a rejected release (editing makes it a draft again), is edited; a release in
//   review or further on is skipped: never edited behind a reviewer's back, never redelivered.
import type {
  CreateReleaseRequest,
  ReleaseResource,
  ReleaseStatus,
  UpdateReleaseDeliveryRequest,
  UpdateReleaseMetadataRequest,
  UpdateReleaseVideoRequest,
} from '../../contract/index.js';
import { DELIVERY_FORMS, METADATA_FORMS, METADATA_KEYS, fieldChange, same, type DeliveryKey } from './forms.js';
import { StoredAudioMissing, StoredCoverMissing, titleFor, trackChanges, trackName, trackSlots, tracksBodyBuilder } from './tracks.js';
import type {
  ApplyAction,
  ApplyPlan,
  ArtworkChange,
  Change,
  ChangeKind,
  DeliveryChange,
  DesiredRelease,
  ExistingRelease,
  FieldChange,
  MetadataChange,
  PlanOptions,
  SubmitChange,
  VideoChange,
} from './types.js';

export type * from './types.js';
export { StoredAudioMissing, StoredCoverMissing, trackSlots } from './tracks.js';

/** States apply edits; every other state is skipped with its reason. */
export const EDITABLE_STATUSES: readonly ReleaseStatus[] = ['draft', 'rejected'];

const SKIP_REASONS: Record<ReleaseStatus, string> = {
  draft: '',
  rejected: '',
  in_review: "in review: never edited behind the reviewer's back (editable again if the review rejects it)",
  approved: 'approved: on its way to the stores, no longer edited',
  delivered: 'delivered: apply does not redeliver; correct it with `reldist release edit`',
  live: 'live: apply does not redeliver; correct it with `reldist release edit`',
  taken_down: 'taken down: it can no longer be changed',
};

export function planRelease(desired: DesiredRelease, existing: ExistingRelease | undefined, options: PlanOptions): ApplyPlan {
  // In review or further on: only reported, whatever the files say (so the caller need not read them).
  if (existing !== undefined && !EDITABLE_STATUSES.includes(existing.release.status)) return planSkip(existing.release);
  const { plan } = desired;
  if (desired.audioSha256.length !== plan.tracks.length || desired.defaultTitles.length !== plan.tracks.length) {
    throw new RangeError('planRelease: audioSha256 and defaultTitles need one entry per track of the plan');
  }
  return existing === undefined ? planCreate(desired, options) : planUpdate(desired, existing, options);
}

/**
 * Whether the release holds what the file wants, whatever its status (another run may have
 * submitted it meanwhile): the plan of an update with nothing to change. Needs the audio hashes.
 */
export function contentMatches(desired: DesiredRelease, existing: ExistingRelease): boolean {
  if (desired.audioSha256.length !== desired.plan.tracks.length) return false;
  if (desired.plan.artwork && desired.artworkSha256 === undefined) return false;
  try {
    return planUpdate(desired, existing, { submit: false }).action === 'unchanged';
  } catch (err) {
    if (err instanceof StoredAudioMissing || err instanceof StoredCoverMissing) return false;
    throw err;
  }
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
  const stored = plan.tracks.findIndex((t) => t.stored !== undefined);
  if (stored >= 0) throw new StoredAudioMissing(stored, trackName(slots[stored]!, multiDisc), plan.tracks[stored]!.stored!, null);
  if (plan.tracks.length > 0) {
    const indexes = plan.tracks.map((_, i) => i);
    // Tracks without audio yet are made without (their submit waits for it): nothing to upload.
    const withAudio = indexes.filter((i) => desired.audioSha256[i] !== null);
    if (withAudio.length > 0)
      changes.push({
        kind: 'upload',
        fields: withAudio.map((i) => fieldChange(`tracks.${i}.audio`, `${trackName(slots[i]!, multiDisc)} audio`, undefined, desired.audioSha256[i])),
        trackIndexes: withAudio,
      });
    changes.push({
      kind: 'tracks',
      fields: indexes.map((i) => fieldChange(`tracks.${i}`, `${trackName(slots[i]!, multiDisc)} added`, undefined, titleFor(desired, i, undefined))),
      buildBody: tracksBodyBuilder(desired, slots, [], new Set(withAudio)),
    });
  }
  const cover = artworkChange(desired, null);
  if (cover) changes.push(cover);
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

function planSkip(release: ExistingRelease['release']): ApplyPlan {
  // Already submitted (or further on): --submit asks for nothing more.
  return { releaseId: release.id, status: release.status, action: 'skip', reason: SKIP_REASONS[release.status], changes: [], submit: false };
}

// ---- update ---------------------------------------------------------------------------------

function planUpdate(desired: DesiredRelease, existing: ExistingRelease, options: PlanOptions): ApplyPlan {
  const { release } = existing;
  const base = { releaseId: release.id, status: release.status };

  const changes: Change[] = [];
  const metadata = metadataChange(desired.plan.release, release);
  if (metadata) changes.push(metadata);
  changes.push(...trackChanges(desired, existing));
  const cover = artworkChange(desired, release.artwork);
  if (cover) changes.push(cover);
  const delivery = deliveryChange(desired.plan.delivery, release.delivery);
  if (delivery) changes.push(delivery);
  const video = videoChange(desired.plan.video, release.video);
  if (video) changes.push(video);

  const action: ApplyAction = changes.length > 0 ? 'update' : 'unchanged';
  // A rejected release becomes a draft by being edited; unchanged, the service refuses the submit.
  const submittable = release.status === 'draft' || action === 'update';
  const submit = options.submit && submittable;
  if (submit) changes.push(submitChange(release.status));
  const reason = options.submit && !submittable ? 'rejected and unchanged: change what the review asks for before submitting it again' : undefined;
  return { ...base, action, ...(reason ? { reason } : {}), changes, submit };
}

function submitChange(status: ReleaseStatus): SubmitChange {
  return { kind: 'submit', fields: [fieldChange('status', 'status', status, 'in_review')] };
}

// ---- metadata -------------------------------------------------------------------------------

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

// ---- cover ----------------------------------------------------------------------------------

/** The file's cover image, unless the service's cover is already these bytes (its sha256, read from its upload). */
function artworkChange(desired: DesiredRelease, have: ReleaseResource['artwork']): ArtworkChange | undefined {
  const sha256 = desired.artworkSha256;
  if (!desired.plan.artwork || sha256 === undefined) return undefined;
  if (have?.verified && have.sha256 === sha256) return undefined;
  // Referred to by its sha256 only (an export): there are no bytes to send.
  if (desired.plan.artwork.stored !== undefined) throw new StoredCoverMissing(sha256, have?.verified ? (have.sha256 ?? null) : null);
  return { kind: 'artwork', fields: [fieldChange('artwork', 'cover', have?.sha256 ?? undefined, sha256)], sha256 };
}

// ---- delivery and video ---------------------------------------------------------------------

function deliveryChange(want: UpdateReleaseDeliveryRequest | undefined, have: ReleaseResource['delivery']): DeliveryChange | undefined {
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

function definedKeys<T extends object>(o: T): (keyof T & string)[] {
  return (Object.keys(o) as (keyof T & string)[]).filter((k) => o[k] !== undefined);
}
