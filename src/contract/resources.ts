// The resources of the specification, as the reference service sends them (snake_case).
import * as z from 'zod';
import {
  ArtistCredit,
  ArtistPlatform,
  ArtworkColorSpace,
  ArtworkFormat,
  ContentIdPolicy,
  Contributor,
  CopyrightLine,
  EntityId,
  Explicit,
  FileState,
  IsoDate,
  PaginationMeta,
  PriceTier,
  Problem,
  ReleaseStatus,
  ReleaseType,
  Territories,
  Timestamp,
} from './common.js';
import { ErrorBody } from './errors.js';

const exampleTime = '2026-11-22T10:15:00.000Z';

export const UserResource = z
  .object({
    id: EntityId,
    kind: z.enum(['label', 'artist']),
    name: z.string(),
    email: z.string(),
    label_name: z.string().nullable(),
    artist_name: z.string().nullable(),
    country: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({
    id: 'UserResource',
    description: 'The current user as sent on the wire (snake_case).',
    examples: [
      {
        id: 1,
        kind: 'label',
        name: 'Ada Moreau',
        email: 'ada@northern-lights.example',
        label_name: 'Northern Lights Records',
        artist_name: null,
        country: 'GB',
        created_at: exampleTime,
      },
    ],
  });
export type UserResource = z.infer<typeof UserResource>;

export const User = z
  .object({
    id: EntityId,
    kind: z.enum(['label', 'artist']),
    name: z.string(),
    email: z.string(),
    labelName: z.string().nullable(),
    artistName: z.string().nullable(),
    country: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({
    id: 'User',
    description: 'The normalized current user (camelCase), made from UserResource by the client.',
    examples: [
      {
        id: 1,
        kind: 'label',
        name: 'Ada Moreau',
        email: 'ada@northern-lights.example',
        labelName: 'Northern Lights Records',
        artistName: null,
        country: 'GB',
        createdAt: exampleTime,
      },
    ],
  });
export type User = z.infer<typeof User>;

export const TrackFile = z
  .object({
    key: z.string(),
    filename: z.string(),
    format: z.enum(['wav', 'flac', 'aiff']),
    sample_rate: z.number().int().positive(),
    bit_depth: z.number().int().positive(),
    channels: z.number().int().positive(),
    duration_ms: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    state: FileState,
  })
  .meta({
    id: 'TrackFile',
    examples: [
      {
        key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
        filename: 'northern-sky.wav',
        format: 'wav',
        sample_rate: 44100,
        bit_depth: 16,
        channels: 2,
        duration_ms: 215000,
        size: 37926044,
        sha256: 'e4f804314037cf88d549d63a289d317ef6d9650e65e121c88e3bd564064e9814',
        state: 'ready',
      },
    ],
  });
export type TrackFile = z.infer<typeof TrackFile>;

/** What the signed upload address answers: the probed file, before it is attached to a track. */
export const UploadResult = TrackFile.omit({ filename: true }).meta({
  id: 'UploadResult',
  examples: [
    {
      key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
      format: 'wav',
      sample_rate: 44100,
      bit_depth: 16,
      channels: 2,
      duration_ms: 215000,
      size: 37926044,
      sha256: 'e4f804314037cf88d549d63a289d317ef6d9650e65e121c88e3bd564064e9814',
      state: 'ready',
    },
  ],
});
export type UploadResult = z.infer<typeof UploadResult>;

/** The facts read from a cover image's bytes (never from what the client declared). */
const artworkFacts = {
  format: ArtworkFormat,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  color_space: ArtworkColorSpace,
  bit_depth: z.number().int().positive().meta({ description: 'Bits per channel: 8, or 16 for a 16-bit PNG.' }),
  icc_profile: z.string().nullable().meta({ description: "The embedded ICC profile's name (e.g. sRGB IEC61966-2.1), null without one." }),
  progressive: z.boolean().meta({ description: 'A progressive (interlaced) JPEG or PNG.' }),
};

/** What the signed upload address answers for a cover image: the facts read from its bytes. */
export const ArtworkFile = z
  .object({
    key: z.string(),
    ...artworkFacts,
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    state: FileState,
  })
  .meta({
    id: 'ArtworkFile',
    examples: [
      {
        key: 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c',
        format: 'jpg',
        width: 3000,
        height: 3000,
        color_space: 'rgb',
        bit_depth: 8,
        icc_profile: 'sRGB IEC61966-2.1',
        progressive: false,
        size: 2481152,
        sha256: '9b2d5c6a1e0f4b3a8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b',
        state: 'ready',
      },
    ],
  });
export type ArtworkFile = z.infer<typeof ArtworkFile>;

const verifiedArtworkExample = {
  verified: true,
  file_key: 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c',
  filename: 'cover.jpg',
  url: null,
  format: 'jpg',
  width: 3000,
  height: 3000,
  color_space: 'rgb',
  bit_depth: 8,
  icc_profile: 'sRGB IEC61966-2.1',
  progressive: false,
  size: 2481152,
  sha256: '9b2d5c6a1e0f4b3a8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b',
} as const;

/**
 * A release's cover. `verified`: an uploaded file whose facts the service read from its bytes; a
 * cover declared by URL (older clients) keeps what was declared, the other facts null.
 */
export const ArtworkResource = z
  .object({
    verified: z
      .boolean()
      .meta({ description: 'true: read from the uploaded bytes; false: a URL and facts declared by the client, not checked ("cover not verified").' }),
    file_key: z.string().nullable(),
    filename: z.string().nullable(),
    url: z.string().nullable().meta({ description: 'The declared URL of an unverified cover; null for an uploaded one.' }),
    format: ArtworkFormat,
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    color_space: ArtworkColorSpace,
    bit_depth: z.number().int().positive().nullable(),
    icc_profile: z.string().nullable(),
    progressive: z.boolean().nullable(),
    size: z.number().int().nonnegative().nullable(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
  })
  .meta({ id: 'ArtworkResource', examples: [verifiedArtworkExample] });
export type ArtworkResource = z.infer<typeof ArtworkResource>;

export const TrackResource = z
  .object({
    id: EntityId,
    release_id: EntityId,
    position: z.number().int().min(1),
    disc: z.number().int().min(1),
    title: z.string(),
    version: z.string().nullable(),
    artists: z.array(ArtistCredit),
    contributors: z.array(Contributor),
    isrc: z.string().nullable().meta({ description: 'Compact form; empty means "assign at submit".' }),
    explicit: Explicit,
    audio_language: z.string().nullable().meta({ description: 'ISO 639-1 code, or "instrumental".' }),
    preview_start_seconds: z.number().int().nonnegative().nullable(),
    file: TrackFile.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'TrackResource',
    examples: [
      {
        id: 7,
        release_id: 42,
        position: 1,
        disc: 1,
        title: 'Northern Sky',
        version: null,
        artists: [{ name: 'Nina Vale', role: 'primary' }],
        contributors: [{ name: 'Nina Vale', role: 'composer' }],
        isrc: 'GBNLR2600001',
        explicit: 'not_explicit',
        audio_language: 'en',
        preview_start_seconds: 30,
        file: {
          key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
          filename: 'northern-sky.wav',
          format: 'wav',
          sample_rate: 44100,
          bit_depth: 16,
          channels: 2,
          duration_ms: 215000,
          size: 37926044,
          sha256: 'e4f804314037cf88d549d63a289d317ef6d9650e65e121c88e3bd564064e9814',
          state: 'ready',
        },
        created_at: exampleTime,
        updated_at: exampleTime,
      },
    ],
  });
export type TrackResource = z.infer<typeof TrackResource>;

export const Delivery = z
  .object({
    platforms: z.union([z.literal('all'), z.array(z.string())]),
    territories: Territories,
    release_date: IsoDate.nullable(),
    preorder_date: IsoDate.nullable(),
    price_tier: PriceTier.nullable(),
  })
  .meta({
    id: 'Delivery',
    examples: [{ platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2027-01-15', preorder_date: null, price_tier: 'front' }],
  });

export const VideoSettings = z
  .object({
    enabled: z.boolean(),
    art_tracks: z.boolean(),
    content_id: z.object({ enabled: z.boolean(), policy: ContentIdPolicy }),
  })
  .meta({ id: 'VideoSettings', examples: [{ enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'monetize' } }] });

export const Review = z
  .object({ codes: z.array(z.string()), notes: z.string().nullable(), reviewed_at: Timestamp })
  .meta({ id: 'Review', examples: [{ codes: ['artwork_low_resolution'], notes: 'The cover is 1400 px; we need 3000 px.', reviewed_at: exampleTime }] });

const releaseExample = {
  id: 42,
  status: 'draft',
  type: 'single',
  title: 'Northern Sky',
  version: null,
  artists: [{ name: 'Nina Vale', role: 'primary' }],
  label: 'Northern Lights Records',
  catalog_number: 'NLR-0042',
  upc: '5063489000013',
  genre: 'Pop',
  subgenre: null,
  language: 'en',
  p_line: { year: 2026, owner: 'Northern Lights Records' },
  c_line: { year: 2026, owner: 'Northern Lights Records' },
  original_release_date: null,
  explicit: 'not_explicit',
  artwork: null,
  delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2027-01-15', preorder_date: null, price_tier: 'front' },
  video: { enabled: false, art_tracks: false, content_id: { enabled: false, policy: 'monetize' } },
  track_count: 0,
  tracks: [],
  review: null,
  submission_notes: null,
  created_at: exampleTime,
  updated_at: exampleTime,
  submitted_at: null,
};

export const ReleaseResource = z
  .object({
    id: EntityId,
    status: ReleaseStatus,
    type: ReleaseType,
    title: z.string(),
    version: z.string().nullable(),
    artists: z.array(ArtistCredit),
    label: z.string(),
    catalog_number: z.string().nullable(),
    upc: z.string().nullable().meta({ description: 'Kept as a string: leading zeros matter. Empty means "assign at submit".' }),
    genre: z.string().nullable(),
    subgenre: z.string().nullable(),
    language: z.string().nullable(),
    p_line: CopyrightLine.nullable(),
    c_line: CopyrightLine.nullable(),
    original_release_date: IsoDate.nullable(),
    explicit: Explicit,
    artwork: ArtworkResource.nullable(),
    delivery: Delivery,
    video: VideoSettings,
    track_count: z.number().int().min(0),
    tracks: z.array(TrackResource).optional().meta({ description: 'Present on a single release; in lists only with include=tracks.' }),
    review: Review.nullable(),
    submission_notes: z.string().nullable().meta({ description: 'The notes for the reviewer sent with the last submit (SubmitReleaseRequest.notes).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    submitted_at: Timestamp.nullable(),
  })
  .meta({ id: 'ReleaseResource', examples: [releaseExample] });
export type ReleaseResource = z.infer<typeof ReleaseResource>;

/** One part of an upload in parts that the service holds: its number (from 1), its size and its checksum, checked when it arrived. */
export const UploadPart = z
  .object({
    part: z.number().int().positive(),
    size: z.number().int().positive(),
    checksum: z.string().meta({ description: 'As its Upload-Checksum header declared it (and its bytes have): `crc32 <base64>` or `sha256 <base64>`.' }),
  })
  .meta({ id: 'UploadPart', examples: [{ part: 1, size: 8388608, checksum: 'crc32 CUhVxw==' }] });
export type UploadPart = z.infer<typeof UploadPart>;

const partsExample = {
  part_size: 16777216,
  count: 3,
  part_url:
    'http://127.0.0.1:8080/uploads/upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6/parts/{part}?expires=1795000000&signature=3d5e8a1f0c9b7d6e4a2f1c0b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
  complete_url:
    'http://127.0.0.1:8080/uploads/upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6/complete?expires=1795000000&signature=3d5e8a1f0c9b7d6e4a2f1c0b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
  state: 'receiving' as const,
  received: [],
};

/** Where the parts of an upload in parts go (asked for with part_size), and those the service holds already. */
export const UploadParts = z
  .object({
    part_size: z.number().int().positive().meta({ description: 'Every part is this many bytes, the last one the rest.' }),
    count: z.number().int().positive(),
    part_url: z.string().meta({
      description:
        "PUT each part here, `{part}` replaced by its number (1 to count), with Content-Length and `Upload-Checksum: crc32 <base64>` (or `sha256 <base64>`: tus's checksum extension); in any order, several at once.",
    }),
    complete_url: z
      .string()
      .meta({ description: 'POST {"sha256": "<the whole file\'s>"} here once every part is held: the service checks the whole file, then probes it.' }),
    state: z
      .enum(['receiving', 'ready'])
      .meta({ description: 'ready: the upload is complete already (a resumed one): POST complete_url again for its answer.' }),
    received: z.array(UploadPart).meta({ description: 'The parts the service holds (a resumed upload): send only the others.' }),
  })
  .meta({ id: 'UploadParts', examples: [partsExample] });
export type UploadParts = z.infer<typeof UploadParts>;

export const TrackUploadUrlData = z
  .object({
    key: z.string().meta({ description: 'Names the upload; attach it to a track with file_key.' }),
    upload_url: z.string().meta({
      format: 'uri',
      description:
        "Absolute: the service's public address (serve --public-url, or the request's Host). PUT the whole file here, or GET it for what the service holds.",
    }),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expires_at: Timestamp,
    parts: UploadParts.optional().meta({ description: 'Only for an upload asked for with part_size.' }),
  })
  .meta({
    id: 'TrackUploadUrlData',
    examples: [
      {
        key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
        upload_url: `http://127.0.0.1:8080/uploads/upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6?expires=1795000000&signature=3d5e8a1f0c9b7d6e4a2f1c0b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b`,
        method: 'PUT',
        headers: { 'Content-Type': 'audio/wav', 'Content-Length': '37926044' },
        expires_at: exampleTime,
      },
    ],
  });
export type TrackUploadUrlData = z.infer<typeof TrackUploadUrlData>;

export const ArtworkUploadUrlData = TrackUploadUrlData.extend({
  key: z.string().meta({ description: "Names the upload; once PUT, set it as the release's cover with PATCH …/metadata {artwork: {file_key}}." }),
}).meta({
  id: 'ArtworkUploadUrlData',
  examples: [
    {
      key: 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c',
      upload_url: `http://127.0.0.1:8080/uploads/upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c?expires=1795000000&signature=3d5e8a1f0c9b7d6e4a2f1c0b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b`,
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg', 'Content-Length': '2481152' },
      expires_at: exampleTime,
    },
  ],
});
export type ArtworkUploadUrlData = z.infer<typeof ArtworkUploadUrlData>;

/** What GET on a signed upload address answers: how much of the upload the service holds. */
export const UploadStatus = z
  .object({
    key: z.string(),
    size: z.number().int().positive(),
    part_size: z.number().int().positive().nullable().meta({ description: 'null: an upload of one PUT (which holds nothing until it is complete).' }),
    state: z.enum(['receiving', 'ready']),
    received_bytes: z.number().int().nonnegative(),
    parts: z.array(UploadPart).meta({ description: 'The parts held, in order.' }),
  })
  .meta({
    id: 'UploadStatus',
    examples: [
      {
        key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
        size: 37926044,
        part_size: 8388608,
        state: 'receiving',
        received_bytes: 8388608,
        parts: [{ part: 1, size: 8388608, checksum: 'crc32 CUhVxw==' }],
      },
    ],
  });
export type UploadStatus = z.infer<typeof UploadStatus>;

/** An upload of the account that no track and no cover names yet. */
export const UploadSummary = z
  .object({
    key: z.string(),
    release_id: EntityId.meta({ description: 'The release it was asked for.' }),
    kind: z.enum(['audio', 'image']).meta({ description: "audio: a track's file; image: a cover." }),
    filename: z.string(),
    size: z.number().int().positive(),
    received_bytes: z.number().int().nonnegative(),
    state: z.enum(['receiving', 'complete']).meta({ description: 'receiving: an upload in parts not complete yet; complete: ready to attach.' }),
    part_size: z.number().int().positive().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp.meta({ description: 'When its last byte arrived (or when it was asked for).' }),
    expires_at: Timestamp.meta({ description: 'When the service deletes it, unless it is attached (or, receiving, moves) before.' }),
  })
  .meta({
    id: 'UploadSummary',
    examples: [
      {
        key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
        release_id: 42,
        kind: 'audio',
        filename: 'northern-sky.wav',
        size: 37926044,
        received_bytes: 16777216,
        state: 'receiving',
        part_size: 16777216,
        created_at: exampleTime,
        updated_at: exampleTime,
        expires_at: exampleTime,
      },
    ],
  });
export type UploadSummary = z.infer<typeof UploadSummary>;

export const DiscardUploadsResponse = z
  .object({
    discarded: z.array(UploadSummary).meta({ description: 'Deleted now, as they were.' }),
    not_found: z.array(z.string()).meta({ description: 'Keys with no upload of yours (never, or deleted already).' }),
    attached: z.array(z.string()).meta({ description: 'Keys a track or a cover names: kept.' }),
  })
  .meta({ id: 'DiscardUploadsResponse', examples: [{ discarded: [], not_found: ['upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6'], attached: [] }] });
export type DiscardUploadsResponse = z.infer<typeof DiscardUploadsResponse>;

export const ValidationResultData = z
  .object({
    kind: z.enum(['upc', 'isrc']),
    input: z.string(),
    valid: z.boolean(),
    normalized: z.string().nullable(),
    display: z.string().nullable(),
    problems: z.array(Problem),
  })
  .meta({
    id: 'ValidationResultData',
    examples: [
      {
        kind: 'upc',
        input: '0 36000 29145 3',
        valid: false,
        normalized: '036000291453',
        display: null,
        problems: [
          {
            code: 'bad_check_digit',
            message: 'check digit is 3, should be 2',
            hint: 'the code may be mistyped: did you mean 036000291452?',
            severity: 'error',
          },
        ],
      },
    ],
  });
export type ValidationResultData = z.infer<typeof ValidationResultData>;

export const ValidateCodesResponse = z
  .object({
    data: z.array(ValidationResultData).meta({ description: 'One result per code of the request, in its order.' }),
  })
  .meta({
    id: 'ValidateCodesResponse',
    // One code, as the request's example: a client (or a mock built from the document) pairs each verdict with its code.
    examples: [
      {
        data: [
          {
            kind: 'upc',
            input: '036000291452',
            valid: false,
            normalized: '036000291452',
            display: '036000291452',
            problems: [
              {
                path: 'codes.0.code',
                code: 'upc_in_use',
                message: 'already used by your release 42 "Northern Sky" (NLR-0042, live)',
                hint: 'each release needs its own UPC; leave it empty to have one assigned at submit',
                severity: 'error',
              },
            ],
          },
        ],
      },
    ],
  });
export type ValidateCodesResponse = z.infer<typeof ValidateCodesResponse>;

export const SubmitReleaseResponse = z
  .object({
    submitted: z.boolean().meta({ description: 'false for a dry run' }),
    message: z.string(),
    release: ReleaseResource,
    problems: z.array(Problem).meta({ description: 'Warnings on a successful submit; every problem on a dry run.' }),
  })
  .meta({
    id: 'SubmitReleaseResponse',
    examples: [
      { submitted: true, message: 'Release 42 is in review.', release: { ...releaseExample, status: 'in_review', submitted_at: exampleTime }, problems: [] },
    ],
  });
export type SubmitReleaseResponse = z.infer<typeof SubmitReleaseResponse>;

export const SubmitReleasesResult = z
  .object({
    release_id: EntityId.meta({ description: 'The release, as the request named it.' }),
    status: z
      .number()
      .int()
      .meta({ description: "The HTTP status POST /releases/{releaseId}/submit would have answered for this release: 200, or its error's." }),
    body: z.union([SubmitReleaseResponse, ErrorBody]).meta({
      description:
        'What POST /releases/{releaseId}/submit would have answered: a SubmitReleaseResponse with status 200, else the ErrorBody (submit_blocked with its problems, state_conflict, not_found…).',
    }),
  })
  .meta({
    id: 'SubmitReleasesResult',
    examples: [
      {
        release_id: 43,
        status: 409,
        body: {
          error: {
            status: 409,
            code: 'state_conflict',
            message: 'the release is in review (status in_review): submit is possible only from draft',
            request_id: 'req_9b1f0c6d2a',
            details: { release_id: 43, status: 'in_review' },
          },
        },
      },
    ],
  });
export type SubmitReleasesResult = z.infer<typeof SubmitReleasesResult>;

export const SubmitReleasesResponse = z
  .object({
    data: z.array(SubmitReleasesResult).meta({ description: 'One result per release of the request, in its order.' }),
  })
  .meta({
    id: 'SubmitReleasesResponse',
    // One release, as the request's example: a client pairs each result with the release it named.
    examples: [
      {
        data: [
          {
            release_id: 42,
            status: 200,
            body: {
              submitted: true,
              message: 'Release 42 is in review.',
              release: { ...releaseExample, status: 'in_review', submitted_at: exampleTime },
              problems: [],
            },
          },
        ],
      },
    ],
  });
export type SubmitReleasesResponse = z.infer<typeof SubmitReleasesResponse>;

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse', examples: [{ message: 'Release 42 deleted.' }] });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** A release as lists show it: without its tracks. */
const { tracks: _tracks, ...releaseListItemExample } = releaseExample;

export const ListReleasesResponse = z
  .object({ data: z.array(ReleaseResource), meta: PaginationMeta })
  .meta({ id: 'ListReleasesResponse', examples: [{ data: [releaseListItemExample], meta: { page: 1, per_page: 20, total: 1, total_pages: 1 } }] });
export type ListReleasesResponse = z.infer<typeof ListReleasesResponse>;

export const ArtistPlatformResult = z
  .object({
    platform: ArtistPlatform,
    id: z.string(),
    name: z.string(),
    url: z.string(),
    image_url: z.string().nullable(),
    followers: z.number().int().nonnegative().nullable(),
    handle: z.string().nullable().meta({ description: "Video service B: the channel's @handle; null on the other platforms." }),
  })
  .meta({
    id: 'ArtistPlatformResult',
    examples: [
      {
        platform: 'streaming_a',
        id: '4Z8W4fKeB5YxbusRsdQVPb',
        name: 'Nina Vale',
        url: 'https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb',
        image_url: 'https://img.streaming-a.example/4Z8W4fKeB5YxbusRsdQVPb.jpg',
        followers: 18250,
        handle: null,
      },
      {
        platform: 'video_b',
        id: 'UCq3Vd9mX2kLp8RtYw4ZbN1c',
        name: 'Nina Vale',
        url: 'https://video-b.example/channel/UCq3Vd9mX2kLp8RtYw4ZbN1c',
        image_url: null,
        followers: 5120,
        handle: '@ninavale',
      },
    ],
  });
export type ArtistPlatformResult = z.infer<typeof ArtistPlatformResult>;

/** Per platform: an existing profile, or "create a new one" (a wrong match lands on a stranger's page). */
export const PlatformChoice = z
  .object({
    platform: ArtistPlatform,
    mode: z.enum(['existing', 'new']),
    profile: ArtistPlatformResult.nullable(),
  })
  .meta({ id: 'PlatformChoice', examples: [{ platform: 'store_c', mode: 'new', profile: null }] });
export type PlatformChoice = z.infer<typeof PlatformChoice>;

export const ArtistPreferencesData = z
  .object({
    artist_name: z.string().nullable(),
    platforms: z.array(PlatformChoice),
    updated_at: Timestamp.nullable(),
  })
  .meta({
    id: 'ArtistPreferencesData',
    examples: [{ artist_name: 'Nina Vale', platforms: [{ platform: 'store_c', mode: 'new', profile: null }], updated_at: exampleTime }],
  });
export type ArtistPreferencesData = z.infer<typeof ArtistPreferencesData>;

export const PreferenceArtistItem = z
  .object({
    id: EntityId,
    name: z.string(),
    source: z.enum(['self', 'label']).meta({ description: 'self: the artist account itself; label: an artist the label manages.' }),
    platforms: z.array(PlatformChoice),
    release_count: z.number().int().min(0).meta({
      description:
        "How many of the account's releases the artist is on: for a label's artist, those crediting it by artist_id; for the account itself, all of them.",
    }),
  })
  .meta({ id: 'PreferenceArtistItem', examples: [{ id: 3, name: 'Nina Vale', source: 'label', platforms: [], release_count: 2 }] });
export type PreferenceArtistItem = z.infer<typeof PreferenceArtistItem>;

export const LabelArtistResource = z
  .object({
    id: EntityId,
    name: z.string(),
    platforms: z.array(PlatformChoice),
    release_count: z.number().int().min(0),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'LabelArtistResource',
    examples: [
      {
        id: 3,
        name: 'Nina Vale',
        platforms: [{ platform: 'store_c', mode: 'new', profile: null }],
        release_count: 2,
        created_at: exampleTime,
        updated_at: exampleTime,
      },
    ],
  });
export type LabelArtistResource = z.infer<typeof LabelArtistResource>;

export const LabelSettings = z
  .object({
    name: z.string(),
    default_p_line_owner: z.string().nullable(),
    default_c_line_owner: z.string().nullable(),
    default_genre: z.string().nullable(),
    default_language: z.string().nullable(),
  })
  .meta({
    id: 'LabelSettings',
    examples: [
      {
        name: 'Northern Lights Records',
        default_p_line_owner: 'Northern Lights Records',
        default_c_line_owner: 'Northern Lights Records',
        default_genre: 'Pop',
        default_language: 'en',
      },
    ],
  });

export const LabelPreferencesData = z.object({ label: LabelSettings, artists: z.array(LabelArtistResource), meta: PaginationMeta }).meta({
  id: 'LabelPreferencesData',
  examples: [
    {
      label: {
        name: 'Northern Lights Records',
        default_p_line_owner: 'Northern Lights Records',
        default_c_line_owner: 'Northern Lights Records',
        default_genre: 'Pop',
        default_language: 'en',
      },
      artists: [{ id: 3, name: 'Nina Vale', platforms: [], release_count: 2, created_at: exampleTime, updated_at: exampleTime }],
      meta: { page: 1, per_page: 20, total: 1, total_pages: 1 },
    },
  ],
});
export type LabelPreferencesData = z.infer<typeof LabelPreferencesData>;

export const SearchArtistPlatformResponseData = z
  .object({
    query: z.string(),
    results: z.array(z.object({ platform: ArtistPlatform, artists: z.array(ArtistPlatformResult) })),
  })
  .meta({
    id: 'SearchArtistPlatformResponseData',
    examples: [
      {
        query: 'nina vale',
        results: [
          {
            platform: 'streaming_a',
            artists: [
              {
                platform: 'streaming_a',
                id: '4Z8W4fKeB5YxbusRsdQVPb',
                name: 'Nina Vale',
                url: 'https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb',
                image_url: null,
                followers: 18250,
                handle: null,
              },
            ],
          },
        ],
      },
    ],
  });
export type SearchArtistPlatformResponseData = z.infer<typeof SearchArtistPlatformResponseData>;

export const CountryResource = z
  .object({ code: z.string().regex(/^[A-Z]{2}$/), name: z.string() })
  .meta({ id: 'CountryResource', examples: [{ code: 'DE', name: 'Germany' }] });
export type CountryResource = z.infer<typeof CountryResource>;

export const LanguageResource = z
  .object({ code: z.string(), name: z.string(), native_name: z.string() })
  .meta({ id: 'LanguageResource', examples: [{ code: 'de', name: 'German', native_name: 'Deutsch' }] });
export type LanguageResource = z.infer<typeof LanguageResource>;

export const LookupPlatformsData = z
  .object({
    stores: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(['streaming', 'download', 'video', 'social']) })),
    artist_platforms: z.array(z.object({ id: ArtistPlatform, name: z.string() })),
  })
  .meta({
    id: 'LookupPlatformsData',
    examples: [
      {
        stores: [{ id: 'streaming_a', name: 'Streaming service A', kind: 'streaming' }],
        artist_platforms: [{ id: 'streaming_a', name: 'Streaming service A' }],
      },
    ],
  });
export type LookupPlatformsData = z.infer<typeof LookupPlatformsData>;

export const Genres = z.array(z.string()).meta({ id: 'Genres', examples: [['Alternative', 'Pop', 'Electronic']] });
