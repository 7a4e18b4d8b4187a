// The request body of each endpoint that takes one (the sandbox controls' too). Apart from the
// queries and the answers so that the service builds them only when a route with a body is first
// asked for (docs/startup.md).
import {
  CreateArtworkUploadUrlRequest,
  CreateReleaseRequest,
  CreateTrackUploadUrlRequest,
  DiscardUploadsRequest,
  GetArtistViaUrlRequest,
  RemoveLabelArtistBody,
  ReplaceReleaseTracksBody,
  ReplaceSingleTrackFileRequest,
  SandboxEmptyRequest,
  SandboxRejectRequest,
  SearchArtistPlatformRequest,
  SubmitArtistPreferenceRequest,
  SubmitLabelPreferenceRequest,
  SubmitReleaseRequest,
  SubmitReleasesRequest,
  UpdateReleaseDeliveryRequest,
  UpdateReleaseMetadataRequest,
  UpdateReleaseVideoRequest,
  ValidateCodesRequest,
  ValidateIsrcRequest,
  ValidateUpcRequest,
  WithdrawReleaseRequest,
} from './requests.js';
import type { EndpointId, SandboxEndpointId } from './routes.js';
import { CreateWebhookRequest, ResendWebhookEventRequest, RotateWebhookSecretRequest, TestWebhookRequest, UpdateWebhookRequest } from './webhooks.js';
import type * as z from 'zod';

/** Whether a body schema takes `{}` (every field optional): then the body itself may be left out. */
export const bodyMayBeLeftOut = (schema: z.ZodType): boolean => schema.safeParse({}).success;

/** `as const satisfies`: each entry keeps its own schema type, from which catalog.ts derives the body types. */
export const bodySchemas = {
  createRelease: CreateReleaseRequest,
  updateReleaseMetadata: UpdateReleaseMetadataRequest,
  updateReleaseDelivery: UpdateReleaseDeliveryRequest,
  updateReleaseVideo: UpdateReleaseVideoRequest,
  submitRelease: SubmitReleaseRequest,
  submitReleases: SubmitReleasesRequest,
  withdrawRelease: WithdrawReleaseRequest,
  validateUpc: ValidateUpcRequest,
  validateCodes: ValidateCodesRequest,
  createTrackUploadUrl: CreateTrackUploadUrlRequest,
  createArtworkUploadUrl: CreateArtworkUploadUrlRequest,
  discardUploads: DiscardUploadsRequest,
  replaceTrackFile: ReplaceSingleTrackFileRequest,
  replaceReleaseTracks: ReplaceReleaseTracksBody,
  validateIsrc: ValidateIsrcRequest,
  submitArtistPreference: SubmitArtistPreferenceRequest,
  submitLabelPreference: SubmitLabelPreferenceRequest,
  removeLabelArtist: RemoveLabelArtistBody,
  searchArtistPlatform: SearchArtistPlatformRequest,
  getArtistViaUrl: GetArtistViaUrlRequest,
  createWebhook: CreateWebhookRequest,
  updateWebhook: UpdateWebhookRequest,
  testWebhook: TestWebhookRequest,
  rotateWebhookSecret: RotateWebhookSecretRequest,
  resendWebhookEvent: ResendWebhookEventRequest,
} as const satisfies Partial<Record<EndpointId, z.ZodType>>;

export const sandboxBodySchemas = {
  sandboxApprove: SandboxEmptyRequest,
  sandboxReject: SandboxRejectRequest,
  sandboxWithdraw: SandboxEmptyRequest,
  sandboxDeliver: SandboxEmptyRequest,
  sandboxGoLive: SandboxEmptyRequest,
  sandboxTakeDown: SandboxEmptyRequest,
} as const satisfies Record<SandboxEndpointId, z.ZodType>;

/** The body schema of any endpoint (undefined when it takes none), for code that holds an id of no particular endpoint. */
export function bodySchemaOf(id: EndpointId | SandboxEndpointId): z.ZodType | undefined {
  const table: Partial<Record<EndpointId | SandboxEndpointId, z.ZodType>> = { ...bodySchemas, ...sandboxBodySchemas };
  return table[id];
}
