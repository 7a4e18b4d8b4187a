import * as z from 'zod';
import { EntityId, Problem, ReleaseStatus } from './common.js';

/** Machine-readable error codes. Clients branch on these, never on messages. */
export const errorCodes = {
  bad_request: 400,
  invalid_json: 400,
  invalid_query: 400,
  bad_idempotency_key: 400,
  upload_interrupted: 400,
  unauthorized: 401,
  forbidden: 403,
  upload_signature_invalid: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  state_conflict: 409,
  catalog_number_taken: 409,
  codes_exhausted: 409,
  idempotency_in_progress: 409,
  upload_in_progress: 409,
  upload_incomplete: 409,
  upload_expired: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  upload_quota_exceeded: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  validation_failed: 422,
  submit_blocked: 422,
  idempotency_key_reused: 422,
  upload_mismatch: 422,
  upload_part_mismatch: 422,
  audio_unrecognized: 422,
  audio_format_not_accepted: 422,
  audio_not_stereo: 422,
  audio_bit_depth_not_accepted: 422,
  audio_sample_rate_not_accepted: 422,
  audio_truncated: 422,
  audio_too_short: 422,
  artwork_unreadable: 422,
  artwork_animated: 422,
  artwork_too_many_pixels: 422,
  rate_limited: 429,
  internal: 500,
  upload_capacity_exceeded: 507,
} as const;
export type ErrorCode = keyof typeof errorCodes;

/** 409 catalog_number_taken: the release that already holds the catalog number. */
export const ErrorDetails = z
  .object({
    release_id: EntityId,
    status: ReleaseStatus,
  })
  .meta({
    id: 'ErrorDetails',
    description:
      'Which existing resource the error is about (409 catalog_number_taken: the release holding the catalog number; 409 state_conflict of a submit: the release and its status).',
    examples: [{ release_id: 42, status: 'in_review' }],
  });
export type ErrorDetails = z.infer<typeof ErrorDetails>;

export const ErrorBody = z
  .object({
    error: z.object({
      status: z.number().int(),
      code: z.string().meta({ description: `One of: ${Object.keys(errorCodes).join(', ')}; clients must accept others.` }),
      message: z.string(),
      request_id: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional().meta({ description: '422 validation_failed: messages keyed by field path.' }),
      problems: z.array(Problem).optional().meta({ description: '422 submit_blocked: every blocking problem and warning.' }),
      details: ErrorDetails.optional(),
    }),
  })
  .meta({
    id: 'ErrorBody',
    examples: [
      {
        error: {
          status: 422,
          code: 'validation_failed',
          message: 'artists.0.role: expected one of primary, featuring, with, remixer',
          request_id: 'req_9b1f0c6d2a',
          fields: { 'artists.0.role': ['expected one of primary, featuring, with, remixer'] },
        },
      },
    ],
  });
export type ErrorBody = z.infer<typeof ErrorBody>;
