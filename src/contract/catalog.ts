// The endpoint catalog: each route of routes.ts joined with its schemas. The server registers its
// routes from this, the client calls through it, and the OpenAPI document is generated from it.
import * as z from 'zod';
import { bodySchemas, sandboxBodySchemas } from './bodies.js';
import { EntityId } from './common.js';
import { ListEventsResponse } from './events.js';
import {
  ListWebhookDeliveriesResponse,
  WebhookDeletedResponse,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookTestResult,
} from './webhooks.js';
import { pathParamsOf, querySchemas } from './queries.js';
import {
  ArtistPlatformResult,
  ArtworkUploadUrlData,
  ArtistPreferencesData,
  CountryResource,
  Genres,
  LabelArtistResource,
  LabelPreferencesData,
  LanguageResource,
  ListReleasesResponse,
  LookupPlatformsData,
  MessageResponse,
  PreferenceArtistItem,
  ReleaseResource,
  SearchArtistPlatformResponseData,
  SubmitReleaseResponse,
  SubmitReleasesResponse,
  TrackResource,
  TrackUploadUrlData,
  UploadSummary,
  DiscardUploadsResponse,
  UserResource,
  ValidateCodesResponse,
  ValidationResultData,
} from './resources.js';
import { endpointIds, routes, sandboxEndpointIds, sandboxRoutes, type EndpointId, type Route, type SandboxEndpointId } from './routes.js';

export interface EndpointSchemas {
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
}

export type Endpoint<Id extends string = EndpointId> = Route & EndpointSchemas & { id: Id; pathParams: z.ZodObject };
export type SandboxEndpoint = Endpoint<SandboxEndpointId>;

// Each endpoint's schemas are in three tables, one per part of the exchange: its query
// (queries.ts), its body (bodies.ts) and its answer (below). The service builds only the first
// two, and only those of a route once it is asked for; the client, the tests and the OpenAPI
// document see them joined here.
// `as const satisfies`: checked, but each entry keeps its own schema type, from which the types
// below are derived.
const responseSchemas = {
  getMe: UserResource,
  listReleases: ListReleasesResponse,
  getRelease: ReleaseResource,
  createRelease: ReleaseResource,
  deleteRelease: MessageResponse,
  updateReleaseMetadata: ReleaseResource,
  updateReleaseDelivery: ReleaseResource,
  updateReleaseVideo: ReleaseResource,
  submitRelease: SubmitReleaseResponse,
  submitReleases: SubmitReleasesResponse,
  withdrawRelease: ReleaseResource,
  validateUpc: ValidationResultData,
  validateCodes: ValidateCodesResponse,

  listTracks: z.array(TrackResource),
  getTrack: TrackResource,
  createTrackUploadUrl: TrackUploadUrlData,
  createArtworkUploadUrl: ArtworkUploadUrlData,
  replaceTrackFile: ReleaseResource,
  replaceReleaseTracks: ReleaseResource,
  validateIsrc: ValidationResultData,

  listUploads: z.array(UploadSummary),
  discardUploads: DiscardUploadsResponse,

  listEvents: ListEventsResponse,

  createWebhook: WebhookEndpointWithSecret,
  listWebhooks: z.array(WebhookEndpoint),
  getWebhook: WebhookEndpoint,
  updateWebhook: WebhookEndpoint,
  deleteWebhook: WebhookDeletedResponse,
  testWebhook: WebhookTestResult,
  rotateWebhookSecret: WebhookEndpointWithSecret,
  listWebhookDeliveries: ListWebhookDeliveriesResponse,
  resendWebhookEvent: WebhookDelivery,

  getArtistPreferences: ArtistPreferencesData,
  listPreferenceArtists: z.array(PreferenceArtistItem),
  getLabelPreferences: LabelPreferencesData,
  getLabelArtist: LabelArtistResource,
  submitArtistPreference: MessageResponse,
  submitLabelPreference: MessageResponse,
  removeLabelArtist: MessageResponse,

  searchStreamingA: z.array(ArtistPlatformResult),
  searchVideoChannel: z.array(ArtistPlatformResult),
  searchStoreC: z.array(ArtistPlatformResult),
  getStreamingAArtist: ArtistPlatformResult,
  getVideoChannel: ArtistPlatformResult,
  getStoreCArtist: ArtistPlatformResult,
  getArtistViaLink: ArtistPlatformResult,
  searchArtistPlatform: SearchArtistPlatformResponseData,
  getArtistViaUrl: ArtistPlatformResult,

  getCountries: z.array(CountryResource),
  getPlatforms: LookupPlatformsData,
  getGenres: Genres,
  getLanguages: z.array(LanguageResource),
} as const satisfies Record<EndpointId, z.ZodType>;

type Queries = typeof querySchemas;
type Bodies = typeof bodySchemas;
type Responses = typeof responseSchemas;
/** One endpoint's schemas, each with its own type: `query` and `body` only where it has them. */
type Schemas = {
  [Id in EndpointId]: (Id extends keyof Queries ? { readonly query: Queries[Id] } : unknown) &
    (Id extends keyof Bodies ? { readonly body: Bodies[Id] } : unknown) & { readonly response: Responses[Id] };
};
type BodySchemaOf<Id extends EndpointId> = Id extends keyof Bodies ? Bodies[Id] : undefined;
type QuerySchemaOf<Id extends EndpointId> = Id extends keyof Queries ? Queries[Id] : undefined;

/** The body a caller sends (what the schema accepts; defaults may be left out); `undefined` when none. */
export type BodyOf<Id extends EndpointId> = BodySchemaOf<Id> extends z.ZodType ? z.input<BodySchemaOf<Id>> : undefined;
/** The body as a handler receives it, after the schema parsed it (defaults filled in). */
export type ParsedBodyOf<Id extends EndpointId> = BodySchemaOf<Id> extends z.ZodType ? z.output<BodySchemaOf<Id>> : undefined;
/** The query, typed (numbers are numbers: the service coerces the text); empty when the endpoint takes none. */
export type QueryOf<Id extends EndpointId> = QuerySchemaOf<Id> extends z.ZodObject ? z.output<QuerySchemaOf<Id>> : Record<string, never>;
/** The success body: what a handler must return and what the client's call resolves to. */
export type ResponseOf<Id extends EndpointId> = z.output<Responses[Id]>;
/** One element of a list endpoint's items (a `{data, meta}` page or a plain array). */
export type ItemOf<Id extends EndpointId> =
  ResponseOf<Id> extends readonly (infer T)[] ? T : ResponseOf<Id> extends { data: readonly (infer T)[] } ? T : ResponseOf<Id>;

/** One catalog entry: an Endpoint, narrowed to its literal route and schema types. */
export type CatalogEntry<Id extends EndpointId> = Endpoint & (typeof routes)[Id] & Schemas[Id] & { id: Id };
export type Catalog = { readonly [Id in EndpointId]: CatalogEntry<Id> };

export { bodyMayBeLeftOut } from './bodies.js';

/** One endpoint's schemas from the three tables, in the order query, body, response. */
function schemasOf(id: EndpointId): EndpointSchemas {
  const queries: Partial<Record<EndpointId, z.ZodObject>> = querySchemas;
  const bodies: Partial<Record<EndpointId, z.ZodType>> = bodySchemas;
  const query = queries[id];
  const body = bodies[id];
  return { ...(query ? { query } : {}), ...(body ? { body } : {}), response: responseSchemas[id] };
}

// Object.fromEntries loses the pairing of each id with its own entry; every entry is built from
// routes[id] and the tables' entries of the same id, which is what Catalog states.
export const catalog = Object.fromEntries(
  endpointIds.map((id) => {
    const route: Route = routes[id];
    return [id, { id, ...route, ...schemasOf(id), pathParams: pathParamsOf(route.path) }];
  }),
) as Catalog;

export const endpoints: Endpoint[] = Object.values(catalog);

/** The sandbox's review controls, typed like the catalog but kept apart from the endpoints. */
export const sandboxCatalog: Record<SandboxEndpointId, SandboxEndpoint> = Object.fromEntries(
  sandboxEndpointIds.map((id) => {
    const route: Route = sandboxRoutes[id];
    // Every control answers with the release it moved.
    const schemas: EndpointSchemas = { body: sandboxBodySchemas[id], response: ReleaseResource };
    return [id, { id, ...route, ...schemas, pathParams: pathParamsOf(route.path) }];
  }),
) as Record<SandboxEndpointId, SandboxEndpoint>;

/** Each EntityId in a path is one of these; kept for the server's and OpenAPI's use. */
export { EntityId };
