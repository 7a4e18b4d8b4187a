// The endpoint catalog: each route of routes.ts joined with its schemas. The server registers its
// routes from this, the client calls through it, and the OpenAPI document is generated from it.
import * as z from 'zod';
import { ArtistPlatform, EntityId, LimitQuery, PageQuery, PerPageQuery, ReleaseStatus, ReleaseType } from './common.js';
import {
  CreateReleaseRequest, CreateTrackUploadUrlRequest, GetArtistViaUrlRequest, RemoveLabelArtistBody, ReplaceReleaseTracksBody,
  ReplaceSingleTrackFileRequest, SearchArtistPlatformRequest, SubmitArtistPreferenceRequest, SubmitLabelPreferenceRequest,
  SandboxEmptyRequest, SandboxRejectRequest, SubmitReleaseRequest, UpdateReleaseDeliveryRequest, UpdateReleaseMetadataRequest, UpdateReleaseVideoRequest, ValidateIsrcRequest,
  ValidateUpcRequest,
} from './requests.js';
import {
  ArtistPlatformResult, ArtistPreferencesData, CountryResource, Genres, LabelArtistResource, LabelPreferencesData, LanguageResource,
  ListReleasesResponse, LookupPlatformsData, MessageResponse, PreferenceArtistItem, ReleaseResource, SearchArtistPlatformResponseData,
  SubmitReleaseResponse, TrackResource, TrackUploadUrlData, UserResource, ValidationResultData,
} from './resources.js';
import { routes, sandboxRoutes, type EndpointId, type Route, type SandboxEndpointId } from './routes.js';

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

const schemas: Record<EndpointId, EndpointSchemas> = {
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
  validateUpc: { body: ValidateUpcRequest, response: ValidationResultData },

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
};

function pathParamsOf(path: string): z.ZodObject {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return z.strictObject(Object.fromEntries(names.map((n) => [n, PathId])));
}

export const catalog: Record<EndpointId, Endpoint> = Object.fromEntries(
  (Object.keys(routes) as EndpointId[]).map((id) => {
    const route: Route = routes[id];
    return [id, { id, ...route, ...schemas[id], pathParams: pathParamsOf(route.path) }];
  }),
) as Record<EndpointId, Endpoint>;

export const endpoints: Endpoint[] = Object.values(catalog);

const sandboxSchemas: Record<SandboxEndpointId, EndpointSchemas> = {
  sandboxApprove: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxReject: { body: SandboxRejectRequest, response: ReleaseResource },
  sandboxWithdraw: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxDeliver: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxGoLive: { body: SandboxEmptyRequest, response: ReleaseResource },
  sandboxTakeDown: { body: SandboxEmptyRequest, response: ReleaseResource },
};

/** The sandbox's review controls, typed like the catalog but kept apart from the 36 endpoints. */
export const sandboxCatalog: Record<SandboxEndpointId, SandboxEndpoint> = Object.fromEntries(
  (Object.keys(sandboxRoutes) as SandboxEndpointId[]).map((id) => {
    const route: Route = sandboxRoutes[id];
    return [id, { id, ...route, ...sandboxSchemas[id], pathParams: pathParamsOf(route.path) }];
  }),
) as Record<SandboxEndpointId, SandboxEndpoint>;

/** Each EntityId in a path is one of these; kept for the server's and OpenAPI's use. */
export { EntityId };
