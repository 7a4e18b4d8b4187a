// Request bodies. Strict objects: an unknown field is an error with its path, never silently lost.
import * as z from 'zod';
import { artistLinkDescription } from './artist-links.js';
import {
  ArtistCredit,
  ArtistLink,
  ArtistPlatform,
  Artwork,
  ArtworkUploadRef,
  ContentIdPolicy,
  Contributor,
  CopyrightLine,
  EntityId,
  Explicit,
  IsoDate,
  Notes,
  PriceTier,
  ReleaseType,
  Territories,
  Text,
  controlCharactersMessage,
  noControlCharacters,
} from './common.js';
import {
  artworkMaxBytes,
  submitBatchMax,
  submitNotesMaxLength,
  trackListMax,
  trackPositionMax,
  trackTitleMaxLength,
  uploadFilenameMaxLength,
  uploadKeyPattern,
  uploadMaxBytes,
  uploadPartBounds,
  validateBatchMax,
  validateCodeMaxLength,
} from './routes.js';

export { artistIdOf, tracksOf, uploadContentTypeFor, uploadContentTypes } from './wire-values.js';

const Catalog = z.string().regex(noControlCharacters, controlCharactersMessage).trim().max(20, 'at most 20 characters');
const CodeText = z.string().trim().max(32);

const releaseFields = {
  type: ReleaseType,
  title: Text(200),
  version: Text(100).nullable(),
  artists: z.array(ArtistCredit).min(1, 'at least one artist').max(50),
  label: Text(120),
  catalog_number: Catalog.nullable(),
  upc: CodeText.nullable().meta({ description: 'Leave empty to have one assigned at submit.' }),
  genre: Text(60).nullable().meta({ description: 'A genre from GET /lookup/genres (any case).' }),
  subgenre: Text(60).nullable(),
  language: z.string().trim().min(2).max(12).nullable().meta({ description: 'An ISO 639-1 code from GET /lookup/languages.' }),
  p_line: CopyrightLine.nullable(),
  c_line: CopyrightLine.nullable(),
  original_release_date: IsoDate.nullable(),
  explicit: Explicit,
  artwork: z.union([ArtworkUploadRef, Artwork]).nullable().meta({
    description:
      'The cover: `{file_key}` of an uploaded image (POST …/artwork/upload-url; on a release that exists, so not at create), or, from older clients, a declared URL (checked as "cover not verified").',
  }),
};

export const CreateReleaseRequest = z
  .strictObject({
    type: releaseFields.type,
    title: releaseFields.title,
    artists: releaseFields.artists,
    label: releaseFields.label,
    version: releaseFields.version.optional(),
    catalog_number: releaseFields.catalog_number.optional(),
    upc: releaseFields.upc.optional(),
    genre: releaseFields.genre.optional(),
    subgenre: releaseFields.subgenre.optional(),
    language: releaseFields.language.optional(),
    p_line: releaseFields.p_line.optional(),
    c_line: releaseFields.c_line.optional(),
    original_release_date: releaseFields.original_release_date.optional(),
    explicit: releaseFields.explicit.optional(),
    artwork: releaseFields.artwork.optional(),
  })
  .meta({
    id: 'CreateReleaseRequest',
    examples: [
      {
        type: 'single',
        title: 'Northern Sky',
        artists: [{ name: 'Nina Vale', role: 'primary' }],
        label: 'Northern Lights Records',
        genre: 'Pop',
        language: 'en',
      },
    ],
  });
export type CreateReleaseRequest = z.infer<typeof CreateReleaseRequest>;

/** Every metadata field, optional; null clears a field that may be empty. */
export const UpdateReleaseMetadataRequest = z
  .strictObject(
    Object.fromEntries(Object.entries(releaseFields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof releaseFields]: z.ZodOptional<(typeof releaseFields)[K]>;
    },
  )
  .meta({ id: 'UpdateReleaseMetadataRequest', examples: [{ title: 'Northern Sky', version: 'Acoustic', genre: 'Folk' }] });
export type UpdateReleaseMetadataRequest = z.infer<typeof UpdateReleaseMetadataRequest>;

export const UpdateReleaseDeliveryRequest = z
  .strictObject({
    platforms: z
      .union([
        z.literal('all'),
        z.array(z.string().min(1).max(40)).min(1).max(100).meta({ uniqueItems: true, description: 'Platform ids from GET /lookup/platforms, each once.' }),
      ])
      .optional(),
    territories: Territories.optional(),
    release_date: IsoDate.nullable().optional(),
    preorder_date: IsoDate.nullable().optional(),
    price_tier: PriceTier.nullable().optional(),
  })
  .meta({
    id: 'UpdateReleaseDeliveryRequest',
    examples: [{ platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2027-01-15', price_tier: 'front' }],
  });
export type UpdateReleaseDeliveryRequest = z.infer<typeof UpdateReleaseDeliveryRequest>;

export const UpdateReleaseVideoRequest = z
  .strictObject({
    enabled: z.boolean().optional(),
    art_tracks: z.boolean().optional(),
    content_id: z.strictObject({ enabled: z.boolean().optional(), policy: ContentIdPolicy.optional() }).optional(),
  })
  .meta({ id: 'UpdateReleaseVideoRequest', examples: [{ enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'monetize' } }] });
export type UpdateReleaseVideoRequest = z.infer<typeof UpdateReleaseVideoRequest>;

export const SubmitReleaseRequest = z
  .strictObject({
    dry_run: z.boolean().optional().meta({ description: 'Run every check and report, without submitting.' }),
    notes: Notes(submitNotesMaxLength).optional().meta({ description: 'Notes for the reviewer.' }),
  })
  .meta({ id: 'SubmitReleaseRequest', examples: [{ dry_run: false }] });
export type SubmitReleaseRequest = z.infer<typeof SubmitReleaseRequest>;

export const SubmitReleasesRequest = z
  .strictObject({
    release_ids: z
      .array(EntityId)
      .min(1, 'at least one release')
      .max(submitBatchMax, `at most ${submitBatchMax} releases per request`)
      .meta({
        description: `1 to ${submitBatchMax} releases; the answer has one result per release, in the same order (a release named twice is submitted once, then answered as already in review).`,
      }),
    dry_run: SubmitReleaseRequest.shape.dry_run,
    notes: SubmitReleaseRequest.shape.notes,
  })
  .meta({
    id: 'SubmitReleasesRequest',
    description: `The batch form of /releases/{releaseId}/submit: the same submit, with the same dry_run and notes, for up to ${submitBatchMax} releases in one request (which counts as one request per release for the rate limit). One release's refusal never undoes another's submit.`,
    examples: [{ release_ids: [42] }],
  });
export type SubmitReleasesRequest = z.infer<typeof SubmitReleasesRequest>;

/** No fields: the release is in the path. */
export const WithdrawReleaseRequest = z
  .strictObject({})
  .meta({ id: 'WithdrawReleaseRequest', description: 'Nothing to send; the body may be left out.', examples: [{}] });
export type WithdrawReleaseRequest = z.infer<typeof WithdrawReleaseRequest>;

export const ValidateUpcRequest = z
  .strictObject({
    upc: z.string().max(validateCodeMaxLength),
    release_id: EntityId.optional().meta({ description: 'The release the code is for: its own code is not a conflict.' }),
  })
  .meta({ id: 'ValidateUpcRequest', examples: [{ upc: '036000291452' }] });
export type ValidateUpcRequest = z.infer<typeof ValidateUpcRequest>;

export const ValidateIsrcRequest = z
  .strictObject({
    isrc: z.string().max(validateCodeMaxLength),
    release_id: EntityId.optional().meta({ description: 'Check uniqueness within this release.' }),
    track_id: EntityId.optional().meta({ description: 'The track the code is for: its own code is not a duplicate.' }),
  })
  .meta({ id: 'ValidateIsrcRequest', examples: [{ isrc: 'US-SKG-19-12345' }] });
export type ValidateIsrcRequest = z.infer<typeof ValidateIsrcRequest>;

/** One code of a batch: the single forms' fields, the code under `code` and its kind beside it. */
export const ValidateCodesItem = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('upc'),
      code: ValidateUpcRequest.shape.upc,
      release_id: ValidateUpcRequest.shape.release_id,
    }),
    z.strictObject({
      kind: z.literal('isrc'),
      code: ValidateIsrcRequest.shape.isrc,
      release_id: ValidateIsrcRequest.shape.release_id,
      track_id: ValidateIsrcRequest.shape.track_id,
    }),
  ])
  .meta({ id: 'ValidateCodesItem', examples: [{ kind: 'upc', code: '036000291452' }] });
export type ValidateCodesItem = z.infer<typeof ValidateCodesItem>;

export const ValidateCodesRequest = z
  .strictObject({
    codes: z
      .array(ValidateCodesItem)
      .min(1, 'at least one code')
      .max(validateBatchMax, `at most ${validateBatchMax} codes per request`)
      .meta({ description: `1 to ${validateBatchMax} codes; the answer has one result per code, in the same order.` }),
  })
  .meta({
    id: 'ValidateCodesRequest',
    description: `The batch form of /releases/validate/upc and /releases/validate/isrc: the same checks, for up to ${validateBatchMax} codes in one request (which counts as one for the rate limit).`,
    examples: [{ codes: [{ kind: 'upc', code: '036000291452' }] }],
  });
export type ValidateCodesRequest = z.infer<typeof ValidateCodesRequest>;

export const CreateTrackUploadUrlRequest = z
  .strictObject({
    filename: Text(uploadFilenameMaxLength),
    content_type: Text(100),
    size: z.number().int().positive().max(uploadMaxBytes, 'at most 2 GiB'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
      .optional()
      .meta({
        description:
          "The file's sha256, when the client knows it before sending: the upload is then refused unless the bytes match it. " +
          'Without it the service computes the digest while receiving and answers it from the upload address; the client compares it with its own, computed while sending. ' +
          'An upload in parts may declare it at completion instead (POST its complete_url).',
      }),
    part_size: z
      .number()
      .int()
      .min(uploadPartBounds.minBytes, 'at least 1 MiB')
      .max(uploadPartBounds.maxBytes, 'at most 64 MiB')
      .optional()
      .meta({
        description:
          'Send the file in parts of this many bytes (the last one shorter), each PUT on its own, several at once if you like, ' +
          `then completed with one POST: the answer's \`parts\` says where. At most ${uploadPartBounds.maxParts} parts. Without it: one PUT of the whole file.`,
      }),
    resume_key: z
      .string()
      .regex(uploadKeyPattern, 'an upload key (upl_ and 32 hex digits)')
      .optional()
      .meta({
        description:
          'Continue this upload in parts (one of yours, with the same size and part_size, named by no track or cover yet; asked for another of your releases, it moves there): ' +
          'the answer is a new address for it with the parts the service holds. When it cannot be continued (deleted, expired, attached, another file) the answer is a new upload.',
      }),
  })
  .meta({
    id: 'CreateTrackUploadUrlRequest',
    examples: [
      { filename: 'northern-sky.wav', content_type: 'audio/wav', size: 37926044, sha256: 'e4f804314037cf88d549d63a289d317ef6d9650e65e121c88e3bd564064e9814' },
    ],
  });
export type CreateTrackUploadUrlRequest = z.infer<typeof CreateTrackUploadUrlRequest>;

/** The body of an upload in parts' completion (POST its complete_url): the whole file's sha256. */
export const CompleteUploadRequest = z
  .strictObject({
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
      .optional()
      .meta({ description: "The whole file's sha256; may be left out when it was declared when the upload was asked for (it must be the same)." }),
  })
  .meta({ id: 'CompleteUploadRequest', examples: [{ sha256: 'e4f804314037cf88d549d63a289d317ef6d9650e65e121c88e3bd564064e9814' }] });
export type CompleteUploadRequest = z.infer<typeof CompleteUploadRequest>;

const UploadKey = z.string().regex(uploadKeyPattern, 'an upload key (upl_ and 32 hex digits)');

export const DiscardUploadsRequest = z
  .union([
    z.strictObject({ keys: z.array(UploadKey).min(1).max(1000).meta({ description: 'The uploads to delete, by key.' }) }),
    z.strictObject({ state: z.literal('receiving').meta({ description: 'Every upload in parts of the account still arriving (not complete).' }) }),
  ])
  .meta({
    id: 'DiscardUploadsRequest',
    description:
      'Deletes uploads that no track and no cover names, file and key: named by key, or every one still arriving. A key already gone, or of ' +
      'another account, is answered in `not_found`; one a track or a cover names is kept and answered in `attached`. Safe to repeat.',
    examples: [{ keys: ['upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6'] }, { state: 'receiving' }],
  });
export type DiscardUploadsRequest = z.infer<typeof DiscardUploadsRequest>;

export const CreateArtworkUploadUrlRequest = z
  .strictObject({
    filename: Text(uploadFilenameMaxLength),
    content_type: Text(100).optional().meta({ description: 'Informative only: the service reads the format from the bytes.' }),
    size: z.number().int().positive().max(artworkMaxBytes, 'at most 50 MiB'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')
      .optional()
      .meta({ description: "The file's sha256: the upload is then refused unless the bytes match it (as for a track file)." }),
  })
  .meta({
    id: 'CreateArtworkUploadUrlRequest',
    examples: [
      { filename: 'cover.jpg', content_type: 'image/jpeg', size: 2481152, sha256: '9b2d5c6a1e0f4b3a8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b' },
    ],
  });
export type CreateArtworkUploadUrlRequest = z.infer<typeof CreateArtworkUploadUrlRequest>;

export const ReplaceSingleTrackFileRequest = z
  .strictObject({ file_key: z.string().min(1).max(100) })
  .meta({ id: 'ReplaceSingleTrackFileRequest', examples: [{ file_key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6' }] });
export type ReplaceSingleTrackFileRequest = z.infer<typeof ReplaceSingleTrackFileRequest>;

export const ReplaceReleaseTracksTrackInput = z
  .strictObject({
    id: EntityId.optional().meta({ description: 'Keep this existing track (and its file unless file_key is given).' }),
    file_key: z.string().min(1).max(100).optional().meta({ description: 'An uploaded file to attach.' }),
    title: Text(trackTitleMaxLength),
    version: Text(100).nullable().optional(),
    position: z.number().int().min(1).max(trackPositionMax).optional().meta({ description: 'Defaults to the order in the list.' }),
    disc: z.number().int().min(1).max(99).optional(),
    artists: z.array(ArtistCredit).max(50).optional().meta({ description: "Defaults to the release's artists." }),
    contributors: z.array(Contributor).max(100).optional(),
    isrc: CodeText.nullable().optional(),
    explicit: Explicit.optional(),
    audio_language: z.string().trim().min(2).max(12).nullable().optional(),
    preview_start_seconds: z.number().int().min(0).max(3600).nullable().optional(),
  })
  .meta({
    id: 'ReplaceReleaseTracksTrackInput',
    examples: [
      {
        file_key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
        title: 'Northern Sky',
        contributors: [{ name: 'Nina Vale', role: 'composer' }],
        isrc: 'GBNLR2600001',
        audio_language: 'en',
      },
    ],
  });
export type ReplaceReleaseTracksTrackInput = z.infer<typeof ReplaceReleaseTracksTrackInput>;

export const ReplaceReleaseTracksRequest = z
  .strictObject({ tracks: z.array(ReplaceReleaseTracksTrackInput).max(trackListMax) })
  .meta({ id: 'ReplaceReleaseTracksRequest', examples: [{ tracks: [{ file_key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6', title: 'Northern Sky' }] }] });
export type ReplaceReleaseTracksRequest = z.infer<typeof ReplaceReleaseTracksRequest>;

/** The body of PUT …/tracks: the object form or a plain array. */
export const ReplaceReleaseTracksBody = z
  .union([ReplaceReleaseTracksRequest, z.array(ReplaceReleaseTracksTrackInput).max(trackListMax)])
  .meta({ id: 'ReplaceReleaseTracksBody', examples: [[{ file_key: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6', title: 'Northern Sky' }]] });
export type ReplaceReleaseTracksBody = z.infer<typeof ReplaceReleaseTracksBody>;

export const PlatformChoiceInput = z
  .strictObject({
    platform: ArtistPlatform,
    mode: z.enum(['existing', 'new']),
    profile_id: z.string().min(1).max(100).optional().meta({ description: 'Required with mode "existing".' }),
  })
  .refine((c) => c.mode === 'new' || c.profile_id !== undefined, { message: 'profile_id is required with mode "existing"', path: ['profile_id'] })
  .meta({
    id: 'PlatformChoiceInput',
    description: 'existing: the profile named by profile_id (from the platform searches); new: a profile to be created, with no profile_id.',
    // The two modes, for JSON Schema (the service says which field is wrong).
    oneOf: [
      { properties: { mode: { const: 'existing' }, profile_id: { type: 'string' } }, required: ['mode', 'profile_id'] },
      { properties: { mode: { const: 'new' } }, required: ['mode'], not: { properties: { profile_id: { type: 'string' } }, required: ['profile_id'] } },
    ],
    examples: [{ platform: 'streaming_a', mode: 'existing', profile_id: '4Z8W4fKeB5YxbusRsdQVPb' }],
  });

export const SubmitArtistPreferenceRequest = z
  .strictObject({
    artist_name: Text(120).optional(),
    platforms: z.array(PlatformChoiceInput).max(3).optional().meta({ description: 'At most one choice per platform.' }),
  })
  .meta({ id: 'SubmitArtistPreferenceRequest', examples: [{ artist_name: 'Nina Vale', platforms: [{ platform: 'store_c', mode: 'new' }] }] });
export type SubmitArtistPreferenceRequest = z.infer<typeof SubmitArtistPreferenceRequest>;

export const LabelArtistInput = z
  .strictObject({
    id: EntityId.optional().meta({ description: 'Update this artist; without it, a new artist is added.' }),
    name: Text(120),
    platforms: z.array(PlatformChoiceInput).max(3).optional().meta({ description: 'At most one choice per platform.' }),
  })
  .meta({ id: 'LabelArtistInput', examples: [{ name: 'Nina Vale', platforms: [{ platform: 'store_c', mode: 'new' }] }] });

export const SubmitLabelPreferenceRequest = z
  .strictObject({
    name: Text(120).optional(),
    default_p_line_owner: Text(120).nullable().optional(),
    default_c_line_owner: Text(120).nullable().optional(),
    default_genre: Text(60).nullable().optional(),
    default_language: z.string().trim().min(2).max(12).nullable().optional(),
    artists: z.array(LabelArtistInput).max(100).optional(),
  })
  .meta({ id: 'SubmitLabelPreferenceRequest', examples: [{ default_genre: 'Pop', artists: [{ name: 'Nina Vale' }] }] });
export type SubmitLabelPreferenceRequest = z.infer<typeof SubmitLabelPreferenceRequest>;

export const RemoveLabelArtistRequest = z.strictObject({ artist_id: EntityId }).meta({ id: 'RemoveLabelArtistRequest', examples: [{ artist_id: 3 }] });
export type RemoveLabelArtistRequest = z.infer<typeof RemoveLabelArtistRequest>;

/** The body of the remove endpoint: the object form or just the artist's id. */
export const RemoveLabelArtistBody = z.union([RemoveLabelArtistRequest, EntityId]).meta({ id: 'RemoveLabelArtistBody', examples: [3] });
export type RemoveLabelArtistBody = z.infer<typeof RemoveLabelArtistBody>;

export const SearchArtistPlatformRequest = z
  .strictObject({
    name: Text(120),
    platforms: z.array(ArtistPlatform).min(1).max(3).optional().meta({ description: 'Defaults to all three.' }),
    limit: z.number().int().min(1).max(50).optional(),
  })
  .meta({ id: 'SearchArtistPlatformRequest', examples: [{ name: 'Nina Vale', platforms: ['streaming_a', 'store_c'], limit: 5 }] });
export type SearchArtistPlatformRequest = z.infer<typeof SearchArtistPlatformRequest>;

export const GetArtistViaUrlRequest = z
  .strictObject({
    url: ArtistLink(ArtistPlatform.options).meta({
      description: `${artistLinkDescription(ArtistPlatform.options)} With \`platform\`, it must be of that platform (else 422).`,
    }),
    platform: ArtistPlatform.optional().meta({ description: 'Detected from the link when absent.' }),
  })
  .meta({ id: 'GetArtistViaUrlRequest', examples: [{ url: 'https://open.streaming-a.example/intl-de/artist/4Z8W4fKeB5YxbusRsdQVPb?si=abc' }] });
export type GetArtistViaUrlRequest = z.infer<typeof GetArtistViaUrlRequest>;

/** Body of the sandbox's reject control: the reasons a review team gives, as snake_case codes. */
export const SandboxRejectRequest = z
  .strictObject({
    codes: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a snake_case reason code'))
      .min(1)
      .max(20),
    notes: Notes(2000).trim().optional(),
  })
  .meta({ id: 'SandboxRejectRequest', examples: [{ codes: ['artwork_too_small'], notes: 'The cover is 1400 px; 3000 px is the minimum.' }] });
export type SandboxRejectRequest = z.infer<typeof SandboxRejectRequest>;

/** Body of the other sandbox controls: nothing. */
export const SandboxEmptyRequest = z.strictObject({}).meta({ id: 'SandboxEmptyRequest', examples: [{}] });
