import * as z from 'zod';
import { artistLinkDescription, artistLinkExamples, artistLinkPattern } from './artist-links.js';
import { paging } from './routes.js';
import { artistPlatformIds, contentIdPolicies, explicitValues, priceTiers, releaseStatuses, releaseTypes } from './wire-values.js';

/**
 * One type on the wire, in paths and in answers: a positive integer, so that an id read from an
 * answer is passed back as it is (a client generated from the document needs no conversion).
 */
export const EntityId = z
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ id: 'EntityId', description: 'A positive integer, the same in paths, bodies and answers.', examples: [42] });
export type EntityId = z.infer<typeof EntityId>;

export const Timestamp = z.iso.datetime({ offset: true }).meta({ examples: ['2026-11-22T10:15:00.000Z'] });
export const IsoDate = z.iso.date().meta({ examples: ['2027-01-15'] });

export const ReleaseStatus = z.enum(releaseStatuses).meta({ id: 'ReleaseStatus', examples: ['draft'] });
export type ReleaseStatus = z.infer<typeof ReleaseStatus>;

export const ReleaseType = z.enum(releaseTypes).meta({ id: 'ReleaseType', examples: ['single'] });
export type ReleaseType = z.infer<typeof ReleaseType>;

export const ArtistRole = z.enum(['primary', 'featuring', 'with', 'remixer']).meta({ id: 'ArtistRole', examples: ['primary'] });
export const ContributorRole = z
  .enum(['composer', 'lyricist', 'producer', 'arranger', 'performer', 'mixer', 'mastering_engineer', 'conductor', 'publisher'])
  .meta({ id: 'ContributorRole', examples: ['composer'] });
export const Explicit = z.enum(explicitValues).meta({ id: 'Explicit', examples: ['not_explicit'] });
export const PriceTier = z.enum(priceTiers).meta({ id: 'PriceTier', examples: ['front'] });
export const TerritoryMode = z.enum(['worldwide', 'include', 'exclude']).meta({ id: 'TerritoryMode', examples: ['worldwide'] });
export const FileState = z.enum(['pending', 'ready', 'rejected']).meta({ id: 'FileState', examples: ['ready'] });
export const ContentIdPolicy = z.enum(contentIdPolicies).meta({ id: 'ContentIdPolicy', examples: ['monetize'] });

/** The three external artist platforms, by the specification's neutral names. */
export const ArtistPlatform = z.enum(artistPlatformIds).meta({
  id: 'ArtistPlatform',
  description: 'streaming_a: streaming service A; video_b: video service B (channels); store_c: store C.',
  examples: ['streaming_a'],
});
export type ArtistPlatform = z.infer<typeof ArtistPlatform>;

/** C0 and C1 control characters (escape sequences start with one): never in stored text. */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f';
export const noControlCharacters = new RegExp(`^[^${CONTROL}]*$`);
export const controlCharactersMessage = 'control characters (C0, C1, escape sequences) are not allowed';
/** The same, for text that may span lines (notes): tab and line breaks allowed. */
const CONTROL_BUT_LINES = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
export const noControlButLines = new RegExp(`^[^${CONTROL_BUT_LINES}]*$`);

/**
 * Free text with sane bounds: a real form field, not a document. No control character (checked
 * before trimming: a trailing newline is one too), trimmed, then at least one character: the
 * pattern says both in JSON Schema (a string of spaces alone is refused).
 */
export const Text = (max = 200) =>
  z
    .string()
    .regex(noControlCharacters, controlCharactersMessage)
    .trim()
    .min(1)
    .max(max)
    .meta({ pattern: `^[^${CONTROL}]*[^\\s${CONTROL}][^${CONTROL}]*$` });

/** Multi-line free text (a note): tabs and line breaks allowed, other control characters not. */
export const Notes = (max: number) => z.string().regex(noControlButLines, controlCharactersMessage).max(max);

/** A link to an artist on these platforms, in a form their resolver takes (artist-links.ts says which). */
export const ArtistLink = (platforms: readonly ArtistPlatform[]) =>
  z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .meta({
      pattern: artistLinkPattern(platforms),
      description: artistLinkDescription(platforms),
      examples: [artistLinkExamples[platforms[0]!][0]!],
    });

export const ArtistCredit = z
  .strictObject({
    name: Text(120).meta({ examples: ['Nina Vale'] }),
    artist_id: EntityId.optional().meta({ description: 'A label-managed artist, when the credit is one.' }),
    role: ArtistRole,
  })
  .meta({ id: 'ArtistCredit', examples: [{ name: 'Nina Vale', role: 'primary' }] });
export type ArtistCredit = z.infer<typeof ArtistCredit>;

export const Contributor = z
  .strictObject({ name: Text(120), role: ContributorRole })
  .meta({ id: 'Contributor', examples: [{ name: 'Nina Vale', role: 'composer' }] });
export type Contributor = z.infer<typeof Contributor>;

/** ℗ and © lines: the symbol is added on display, never stored. */
export const CopyrightLine = z
  .strictObject({ year: z.number().int().min(1900).max(2100), owner: Text(120) })
  .meta({ id: 'CopyrightLine', examples: [{ year: 2026, owner: 'Northern Lights Records' }] });
export type CopyrightLine = z.infer<typeof CopyrightLine>;

export const ArtworkFormat = z.enum(['jpg', 'png', 'gif', 'webp', 'tiff']);
export type ArtworkFormat = z.infer<typeof ArtworkFormat>;
export const ArtworkColorSpace = z.enum(['rgb', 'cmyk', 'grayscale']);
export type ArtworkColorSpace = z.infer<typeof ArtworkColorSpace>;

/** The cover as older clients declare it: a URL and facts the service cannot verify. */
export const Artwork = z
  .strictObject({
    url: z.url().max(2000),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    format: ArtworkFormat,
    color_space: ArtworkColorSpace,
  })
  .meta({
    id: 'Artwork',
    description:
      "A cover declared by URL (older clients): still accepted and kept, but its facts are the client's word, so the submit checks report it as " +
      '"cover not verified". Upload the file instead (POST …/artwork/upload-url) and set `{file_key}`.',
    examples: [{ url: 'https://cdn.example/art/42.jpg', width: 3000, height: 3000, format: 'jpg', color_space: 'rgb' }],
  });
export type Artwork = z.infer<typeof Artwork>;

/** The cover as an uploaded file: the service read its facts from the bytes. */
export const ArtworkUploadRef = z
  .strictObject({
    file_key: z.string().min(1).max(100).meta({ description: 'An upload from POST …/artwork/upload-url whose bytes have arrived (PUT answered 200).' }),
  })
  .meta({ id: 'ArtworkUploadRef', examples: [{ file_key: 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c' }] });
export type ArtworkUploadRef = z.infer<typeof ArtworkUploadRef>;

export const Territories = z
  .strictObject({
    mode: TerritoryMode,
    countries: z
      .array(z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, e.g. DE'))
      .max(300)
      .default([])
      .meta({ description: 'Codes from GET /lookup/countries.' }),
  })
  .meta({
    id: 'Territories',
    description: 'worldwide: no countries; include (only these) or exclude (all but these): at least one country.',
    // The service's rule, for JSON Schema (zod checks it in the service, with the field's path).
    oneOf: [
      { properties: { mode: { const: 'worldwide' }, countries: { maxItems: 0 } }, required: ['mode'] },
      { properties: { mode: { enum: ['include', 'exclude'] }, countries: { minItems: 1 } }, required: ['mode', 'countries'] },
    ],
    examples: [{ mode: 'exclude', countries: ['KP'] }],
  });

export const PaginationMeta = z
  .object({
    page: z.number().int().min(1),
    per_page: z.number().int().min(1).max(paging.maxPerPage),
    total: z.number().int().min(0),
    total_pages: z.number().int().min(0),
  })
  .meta({ id: 'PaginationMeta', examples: [{ page: 1, per_page: 20, total: 1, total_pages: 1 }] });
export type PaginationMeta = z.infer<typeof PaginationMeta>;

/** One finding of a check: submit problems, code validation problems. */
export const Problem = z
  .object({
    path: z.string().meta({ description: 'Field path, dot-separated: tracks.0.isrc' }).optional(),
    code: z.string(),
    message: z.string(),
    hint: z.string().optional(),
    severity: z.enum(['error', 'warning']),
  })
  .meta({
    id: 'Problem',
    examples: [
      {
        path: 'tracks.0.title',
        code: 'title_has_featuring',
        message: 'The title credits an artist with "feat."',
        hint: 'Remove "feat. X" from the title and add X as a featuring artist',
        severity: 'error',
      },
    ],
  });
export type Problem = z.infer<typeof Problem>;

// Query strings arrive as text: numbers are coerced, with bounds.
export const PageQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(100_000)
  .meta({ examples: [1] });
export const PerPageQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(paging.maxPerPage)
  .meta({ examples: [paging.defaultPerPage] });
export const LimitQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(paging.searchMaxLimit)
  .meta({ examples: [paging.searchDefaultLimit] });
