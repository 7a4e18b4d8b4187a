// The types of an apply plan: what plan.ts computes and the updater, the display and the report read.
import type {
  CreateReleaseRequest,
  EntityId,
  ReleaseResource,
  ReleaseStatus,
  ReplaceReleaseTracksRequest,
  TrackResource,
  UpdateReleaseDeliveryRequest,
  UpdateReleaseMetadataRequest,
  UpdateReleaseVideoRequest,
} from '../../contract/index.js';
import type { ReleasePlan } from '../release-file/load.js';

export type ApplyAction = 'create' | 'update' | 'unchanged' | 'skip';
export type ChangeKind = 'metadata' | 'tracks' | 'upload' | 'artwork' | 'delivery' | 'video' | 'submit';

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

/** The file's cover image (ReleasePlan.artwork), to upload and set: the service has another (by sha256) or none. */
export interface ArtworkChange {
  kind: 'artwork';
  fields: FieldChange[];
  /** Its sha256, declared with the upload. */
  sha256: string;
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
export type Change = MetadataChange | UploadChange | TracksChange | ArtworkChange | DeliveryChange | VideoChange | SubmitChange;

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
  /** The sha256 (64 lowercase hex digits) of each track's local audio, in the order of plan.tracks; null for a track without audio yet. */
  audioSha256: readonly (string | null)[];
  /**
   * Each track's title for a track new on the service: the file's, else the audio's tags, else its
   * name (titleOf). A track the service already has keeps its title unless the file sets one.
   */
  defaultTitles: readonly string[];
  /** The sha256 of the file's cover image (ReleasePlan.artwork), when it names one. */
  artworkSha256?: string | undefined;
}

export interface ExistingRelease {
  release: ReleaseResource;
  tracks: readonly TrackResource[];
}

export interface PlanOptions {
  /** --submit */
  submit: boolean;
}

/** Where a track of the file goes: the disc it names (else 1) and its position (else the next on that disc). */
export interface TrackSlot {
  disc: number;
  position: number;
}
