// The endpoint catalog: each route of routes.ts joined with its schemas. The server registers its
// routes from this, the client calls through it, and the OpenAPI document is generated from it.
import * as z from 'zod';
import { ArtistPlatform, EntityId, LimitQuery, PageQuery, PerPageQuery, ReleaseStatus, ReleaseType } from './common.js';
import {
  CreateReleaseRequest, CreateTrackUploadUrlRequest, GetArtistViaUrlRequest, RemoveLabelArtistBody, ReplaceReleaseTracksBody,
  ReplaceSingleTrackFileRequest, SearchArtistPlatformRequest, SubmitArtistPreferenceRequest, SubmitLabelPreferenceRequest,
  SandboxEmptyRequest, SandboxRejectRequest, SubmitReleaseRequest, SubmitReleasesRequest, UpdateReleaseDeliveryRequest, UpdateReleaseMetadataRequest, UpdateReleaseVideoRequest, ValidateCodesRequest,
  ValidateIsrcRequest, ValidateUpcRequest,
} from './requests.js';
import {
  ArtistPlatformResult, ArtistPreferencesData, CountryResource, Genres, LabelArtistResource, LabelPreferencesData, LanguageResource,
  ListReleasesResponse, LookupPlatformsData, MessageResponse, PreferenceArtistItem, ReleaseResource, SearchArtistPlatformResponseData,
  SubmitReleaseResponse, SubmitReleasesResponse, TrackResource, TrackUploadUrlData, UserResource, ValidateCodesResponse, ValidationResultData,
} from './resources.js';
import { endpointIds, routes, sandboxRoutes, type EndpointId, type Route, type SandboxEndpointId } from './routes.js';

export interface EndpointSchemas {
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
}

export type Endpoint<Id extends string = EndpointId> = Route & EndpointSchemas & { id: Id; pathParams: z.ZodObject };
export type SandboxEndpoint = Endpoint<SandboxEndpointId>;

const PathId = z.string().min(1).max(64).meta({ description: 'An EntityId.', examples: ['42'] });
const SearchQuery = z.string().trim().min(1).max(120).meta({ examples: ['Nina Vale'] });
const CatalogNumberQuery = z.string().trim().min(1).max(20).meta({
  description: 'Exact catalog number, compared trimmed and case-insensitively.',
  examples: ['NLR-0042'],
});
const LinkQuery = z.string().trim().min(1).max(2000).meta({ examples: ['https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb'] });

const linkQuery = z.strictObject({ url: LinkQuery });
const searchQuery = z.strictObject({ q: SearchQuery, limit: LimitQuery.optional() });

// `as const satisfies`: checked against EndpointSchemas, but each entry keeps its own schema types,
// from which the types below are derived.
const schemas = {
  getMe: { response: UserResource },

  listReleases: {
    query: z.strictObject({
      status: ReleaseStatus.optional(),
      type: ReleaseType.optional(),
      search: SearchQuery.optional().meta({ description: 'Part of a title, an artist name, a UPC or a catalog number.' }),
      catalog_number: CatalogNumberQuery.optional(),
      page: PageQuery.optional(),
      perPage: PerPageQuery.optional(),
    }),
    response: ListReleasesResponse,
  },
  getRelease: { response: ReleaseResource },
  createRelease: { body: CreateReleaseRequest, response: ReleaseResource },
  deleteRelease: { response: MessageResponse },
  updateReleaseMetadata: { body: UpdateReleaseMetadataRequest, response: ReleaseResource },
  updateReleaseDelivery: { body: UpdateReleaseDeliveryRequest, response: ReleaseResource },
  updateReleaseVideo: { body: UpdateReleaseVideoRequest, response: ReleaseResource },
  submitRelease: { body: SubmitReleaseRequest, response: SubmitReleaseResponse },
  submitReleases: { body: SubmitReleasesRequest, response: SubmitReleasesResponse },
  validateUpc: { body: ValidateUpcRequest, response: ValidationResultData },
  validateCodes: { body: ValidateCodesRequest, response: ValidateCodesResponse },

  listTracks: { response: z.array(TrackResource) },
  getTrack: { response: TrackResource },
  createTrackUploadUrl: { body: CreateTrackUploadUrlRequest, response: TrackUploadUrlData },
  replaceTrackFile: { body: ReplaceSingleTrackFileRequest, response: ReleaseResource },
  replaceReleaseTracks: { body: ReplaceReleaseTracksBody, response: ReleaseResource },
  validateIsrc: { body: ValidateIsrcRequest, response: ValidationResultData },

  getArtistPreferences: { response: ArtistPreferencesData },
  listPreferenceArtists: { response: z.array(PreferenceArtistItem) },
  getLabelPreferences: {
    query: z.strictObject({
      search: SearchQuery.optional(),
      page: PageQuery.optional(),
      perPage: PerPageQuery.optional(),
      limit: PerPageQuery.optional().meta({ description: 'Legacy name of perPage; perPage wins when both are given.' }),
    }),
    response: LabelPreferencesData,
  },
  getLabelArtist: { response: LabelArtistResource },
  submitArtistPreference: { body: SubmitArtistPreferenceRequest, response: MessageResponse },
  submitLabelPreference: { body: SubmitLabelPreferenceRequest, response: MessageResponse },
  removeLabelArtist: { body: RemoveLabelArtistBody, response: MessageResponse },

  searchStreamingA: { query: searchQuery, response: z.array(ArtistPlatformResult) },
  searchVideoChannel: { query: searchQuery, response: z.array(ArtistPlatformResult) },
  searchStoreC: { query: searchQuery, response: z.array(ArtistPlatformResult) },
  getStreamingAArtist: { query: linkQuery, response: ArtistPlatformResult },
  getVideoChannel: { query: linkQuery, response: ArtistPlatformResult },
  getStoreCArtist: { query: linkQuery, response: ArtistPlatformResult },
  getArtistViaLink: { query: z.strictObject({ url: LinkQuery, platform: ArtistPlatform }), response: ArtistPlatformResult },
  searchArtistPlatform: { body: SearchArtistPlatformRequest, response: SearchArtistPlatformResponseData },
  getArtistViaUrl: { body: GetArtistViaUrlRequest, response: ArtistPlatformResult },

  getCountries: { response: z.array(CountryResource) },
  getPlatforms: { response: LookupPlatformsData },
  getGenres: { response: Genres },
  getLanguages: { response: z.array(LanguageResource) },
} as const satisfies Record<EndpointId, EndpointSchemas>;

type Schemas = typeof schemas;
type BodySchemaOf<Id extends EndpointId> = Schemas[Id] extends { readonly body: infer S extends z.ZodType } ? S : undefined;
type QuerySchemaOf<Id extends EndpointId> = Schemas[Id] extends { readonly query: infer S extends z.ZodObject } ? S : undefined;

/** The body a caller sends (what the schema accepts; defaults may be left out); `undefined` when none. */
export type BodyOf<Id extends EndpointId> = BodySchemaOf<Id> extends z.ZodType ? z.input<BodySchemaOf<Id>> : undefined;
/** The body as a handler receives it, after the schema parsed it (defaults filled in). */
export type ParsedBodyOf<Id extends EndpointId> = BodySchemaOf<Id> extends z.ZodType ? z.output<BodySchemaOf<Id>> : undefined;
/** The query, typed (numbers are numbers: the service coerces the text); empty when the endpoint takes none. */
export type QueryOf<Id extends EndpointId> = QuerySchemaOf<Id> extends z.ZodObject ? z.output<QuerySchemaOf<Id>> : Record<string, never>;
/** The success body: what a handler must return and what the client's call resolves to. */
export type ResponseOf<Id extends EndpointId> = z.output<Schemas[Id]['response']>;
/** One element of a list endpoint's items (a `{data, meta}` page or a plain array). */
export type ItemOf<Id extends EndpointId> =
  ResponseOf<Id> extends readonly (infer T)[] ? T : ResponseOf<Id> extends { data: readonly (infer T)[] } ? T : ResponseOf<Id>;

/** One catalog entry: an Endpoint, narrowed to its literal route and schema types. */
export type CatalogEntry<Id extends EndpointId> = Endpoint & (typeof routes)[Id] & Schemas[Id] & { id: Id };
export type Catalog = { readonly [Id in EndpointId]: CatalogEntry<Id> };

/** Whether a body schema takes `{}` (every field optional): then the body itself may be left out. */
export const bodyMayBeLeftOut = (schema: z.ZodType): boolean => schema.safeParse({}).success;

function pathParamsOf(path: string): z.ZodObject {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return z.strictObject(Object.fromEntries(names.map((n) => [n, PathId])));
}

// Object.fromEntries loses the pairing of each id with its own entry; every entry is built from
// routes[id] and schemas[id] of the same id, which is what Catalog states.
export const catalog = Object.fromEntries(
  endpointIds.map((id) => {
    const route: Route = routes[id];
    return [id, { id, ...route, ...schemas[id], pathParams: pathParamsOf(route.path) }];
  }),
) as Catalog;

export const endpoints: Endpoint[] = Object.values(catalog);

const sandboxSchemas: Record<SandboxEndpointId, EndpointSchemas> = {
  sandboxApprove: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxReject: { body: SandboxRejectRequest, response: ReleaseResource },
  sandboxWithdraw: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxDeliver: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxGoLive: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxTakeDown: { body: SandboxEmptyRequest, response: ReleaseResource },
};

/** The sandbox's review controls, typed like the catalog but kept apart from the 38 endpoints. */
export const sandboxCatalog: Record<SandboxEndpointId, SandboxEndpoint> = Object.fromEntries(
  (Object.keys(sandboxRoutes) as SandboxEndpointId[]).map((id) => {
    const route: Route = sandboxRoutes[id];
    return [id, { id, ...route, ...sandboxSchemas[id], pathParams: pathParamsOf(route.path) }];
  }),
) as Record<SandboxEndpointId, SandboxEndpoint>;

/** Each EntityId in a path is one of these; kept for the server's and OpenAPI's use. */
export { EntityId };
