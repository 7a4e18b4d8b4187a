// The endpoints as plain data: method, path, success status, query names. No zod here, so the
// client can build a request without loading any schema. `catalog.ts` joins each route with its
// schemas; together they are the only description of the wire in the project.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  path: string;
  status: 200 | 201;
  summary: string;
  tag: 'me' | 'releases' | 'tracks' | 'uploads' | 'events' | 'webhooks' | 'preferences' | 'artist-platforms' | 'lookups' | 'sandbox';
  /** Query parameter names, as the specification spells them. */
  query?: readonly string[];
  /**
   * POSTs the client sends an Idempotency-Key with on its own, so it may retry them. The service
   * honours a key on every mutation (see `acceptsIdempotencyKey`), flagged or not.
   */
  idempotencyKey?: boolean;
  /** Answers with a strong ETag and honours If-None-Match with 304 (what a watcher polls). */
  etag?: boolean;
  /**
   * Honours If-Match with the ETag of the endpoint named here (what the caller read before
   * writing): a write based on a stale read is refused with 412 `precondition_failed`.
   */
  ifMatch?: 'listTracks' | 'getRelease';
  /** Lists that page with page/perPage and answer with a meta block. */
  paginated?: boolean;
  /** Only this kind of account may call it; the other kind gets 403 `forbidden`. */
  account?: 'label' | 'artist';
}

/**
 * The most codes one POST /releases/validate checks (more is 422 validation_failed on `codes`).
 * Plain data, so that a client cuts its chunks without loading a schema.
 */
export const validateBatchMax = 1000;
/** The longest code the validate endpoints take (characters, as typed: spaces and dashes count). */
export const validateCodeMaxLength = 64;
/** The longest reviewer's note a submit takes: plain data, so a client checks it without a schema. */
export const submitNotesMaxLength = 2000;
/**
 * A track list write's bounds: the most tracks, the highest position and the longest title
 * (trimmed). Plain data, so that a client checks the values it fills in without a schema.
 */
export const trackListMax = 500;
export const trackPositionMax = 999;
export const trackTitleMaxLength = 200;
/** The longest file name (trimmed) and the largest file an upload address is given for: plain data, as above. */
export const uploadFilenameMaxLength = 255;
export const uploadMaxBytes = 2 * 1024 ** 3;
/**
 * An upload in parts (docs/api.md, "Uploading audio"): the part sizes a client may ask for, and
 * the most parts one upload may have. Every part but the last is `part_size` bytes. Plain data,
 * so that a client cuts its parts without loading a schema.
 */
export const uploadPartBounds = { minBytes: 1024 ** 2, maxBytes: 64 * 1024 ** 2, maxParts: 2048 } as const;
/** The upload keys the service hands out: `upl_` and 32 hex digits. */
export const uploadKeyPattern = /^upl_[0-9a-f]{32}$/;
/**
 * A cover file's bounds: its size in bytes (the upload address is refused above it) and its
 * pixels, width × height (the upload is refused above it, from the header, before anything is decoded).
 */
export const artworkMaxBytes = 50 * 1024 ** 2;
export const artworkMaxPixels = 100_000_000;
/**
 * The most releases one POST /releases/submit takes (more is 422 validation_failed on
 * `release_ids`). Plain data, so that a client cuts its chunks without loading a schema.
 */
export const submitBatchMax = 500;

export const routes = {
  getMe: { method: 'GET', path: '/me', status: 200, tag: 'me', summary: 'Read the current user' },

  listReleases: {
    method: 'GET',
    path: '/releases',
    status: 200,
    tag: 'releases',
    paginated: true,
    query: ['status', 'type', 'search', 'catalog_number', 'include', 'page', 'perPage'],
    etag: true,
    summary: 'List releases',
  },
  getRelease: { method: 'GET', path: '/releases/{releaseId}', status: 200, tag: 'releases', etag: true, summary: 'Read a release' },
  createRelease: {
    method: 'POST',
    path: '/releases',
    status: 201,
    tag: 'releases',
    idempotencyKey: true,
    summary: 'Create a release (draft)',
  },
  deleteRelease: { method: 'DELETE', path: '/releases/{releaseId}', status: 200, tag: 'releases', summary: 'Delete a release' },
  updateReleaseMetadata: {
    method: 'PATCH',
    path: '/releases/{releaseId}/metadata',
    status: 200,
    tag: 'releases',
    ifMatch: 'getRelease',
    summary: 'Edit release metadata',
  },
  updateReleaseDelivery: {
    method: 'PATCH',
    path: '/releases/{releaseId}/delivery',
    status: 200,
    tag: 'releases',
    ifMatch: 'getRelease',
    summary: 'Edit delivery settings',
  },
  updateReleaseVideo: {
    method: 'PATCH',
    path: '/releases/{releaseId}/video',
    status: 200,
    tag: 'releases',
    ifMatch: 'getRelease',
    summary: 'Edit the video setting',
  },
  submitRelease: {
    method: 'POST',
    path: '/releases/{releaseId}/submit',
    status: 200,
    tag: 'releases',
    idempotencyKey: true,
    ifMatch: 'getRelease',
    summary: 'Submit a release for review (or check it with dry_run)',
  },
  submitReleases: {
    method: 'POST',
    path: '/releases/submit',
    status: 200,
    tag: 'releases',
    idempotencyKey: true,
    summary: `Submit up to ${submitBatchMax} releases for review at once (or check them with dry_run)`,
  },
  withdrawRelease: {
    method: 'POST',
    path: '/releases/{releaseId}/withdraw',
    status: 200,
    tag: 'releases',
    idempotencyKey: true,
    summary: 'Take a release back from review to a draft (in_review → draft), to change it before it is reviewed',
  },
  validateUpc: {
    method: 'POST',
    path: '/releases/validate/upc',
    status: 200,
    tag: 'releases',
    idempotencyKey: true,
    summary: 'Check a UPC',
  },
  validateCodes: {
    method: 'POST',
    path: '/releases/validate',
    status: 200,
    tag: 'releases',
    idempotencyKey: true,
    summary: `Check up to ${validateBatchMax} UPCs and ISRCs at once, answered in order`,
  },

  listTracks: { method: 'GET', path: '/releases/{releaseId}/tracks', status: 200, tag: 'tracks', etag: true, summary: 'List the tracks of a release' },
  getTrack: {
    method: 'GET',
    path: '/releases/{releaseId}/tracks/{trackId}',
    status: 200,
    tag: 'tracks',
    summary: 'Read a track',
  },
  createTrackUploadUrl: {
    method: 'POST',
    path: '/releases/{releaseId}/tracks/upload-url',
    status: 201,
    tag: 'tracks',
    idempotencyKey: true,
    summary: 'Ask for an upload address for a track file',
  },
  createArtworkUploadUrl: {
    method: 'POST',
    path: '/releases/{releaseId}/artwork/upload-url',
    status: 201,
    tag: 'releases',
    idempotencyKey: true,
    summary: 'Ask for an upload address for the cover image',
  },
  replaceTrackFile: {
    method: 'PATCH',
    path: '/releases/{releaseId}/tracks/{trackId}/file',
    status: 200,
    tag: 'tracks',
    summary: 'Replace the audio file of one track',
  },
  replaceReleaseTracks: {
    method: 'PUT',
    path: '/releases/{releaseId}/tracks',
    status: 200,
    tag: 'tracks',
    ifMatch: 'listTracks',
    summary: 'Replace the whole track list',
  },
  validateIsrc: {
    method: 'POST',
    path: '/releases/validate/isrc',
    status: 200,
    tag: 'tracks',
    idempotencyKey: true,
    summary: 'Check an ISRC',
  },

  listUploads: {
    method: 'GET',
    path: '/uploads',
    status: 200,
    tag: 'uploads',
    query: ['state'],
    summary: "List the account's uploads no track or cover names yet: complete ones, and uploads in parts still arriving",
  },
  discardUploads: {
    method: 'POST',
    path: '/uploads/discard',
    status: 200,
    tag: 'uploads',
    idempotencyKey: true,
    summary: 'Delete uploads no track or cover names (by key, or every one still arriving), freeing their bytes',
  },

  listEvents: {
    method: 'GET',
    path: '/events',
    status: 200,
    tag: 'events',
    query: ['after', 'last', 'type', 'release_id', 'limit', 'wait'],
    summary: "Read the account's events in order, after a cursor; wait for the next one (long poll)",
  },

  createWebhook: {
    method: 'POST',
    path: '/webhooks',
    status: 201,
    tag: 'webhooks',
    idempotencyKey: true,
    summary: 'Register a webhook endpoint (its signing secret is answered once)',
  },
  listWebhooks: { method: 'GET', path: '/webhooks', status: 200, tag: 'webhooks', summary: 'List the webhook endpoints' },
  getWebhook: { method: 'GET', path: '/webhooks/{webhookId}', status: 200, tag: 'webhooks', summary: 'Read a webhook endpoint' },
  updateWebhook: {
    method: 'PATCH',
    path: '/webhooks/{webhookId}',
    status: 200,
    tag: 'webhooks',
    summary: "Change a webhook endpoint's URL, event types, description or enabled",
  },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/{webhookId}', status: 200, tag: 'webhooks', summary: 'Delete a webhook endpoint and its delivery log' },
  testWebhook: {
    method: 'POST',
    path: '/webhooks/{webhookId}/test',
    status: 200,
    tag: 'webhooks',
    summary: 'Send a signed ping to the endpoint now and answer what it said',
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/webhooks/{webhookId}/rotate-secret',
    status: 200,
    tag: 'webhooks',
    idempotencyKey: true,
    summary: 'Give the endpoint a new secret (answered once); the old one signs too for an overlap',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    status: 200,
    tag: 'webhooks',
    query: ['event_id', 'status', 'before', 'limit'],
    summary: "The endpoint's delivery log, newest first: attempts, status codes, times",
  },
  resendWebhookEvent: {
    method: 'POST',
    path: '/webhooks/{webhookId}/resend',
    status: 201,
    tag: 'webhooks',
    idempotencyKey: true,
    summary: 'Deliver an event to the endpoint again (same webhook-id)',
  },

  getArtistPreferences: {
    method: 'GET',
    path: '/preferences/artist',
    status: 200,
    tag: 'preferences',
    account: 'artist',
    summary: 'Read the artist preferences',
  },
  listPreferenceArtists: {
    method: 'GET',
    path: '/preferences/artists',
    status: 200,
    tag: 'preferences',
    summary: 'List the artists you can release as',
  },
  getLabelPreferences: {
    method: 'GET',
    path: '/preferences/label',
    status: 200,
    tag: 'preferences',
    account: 'label',
    paginated: true,
    query: ['search', 'page', 'perPage', 'limit'],
    summary: 'Read the label preferences and its artists',
  },
  getLabelArtist: {
    method: 'GET',
    path: '/preferences/label/artist/{id}',
    status: 200,
    tag: 'preferences',
    account: 'label',
    summary: 'Read one label-managed artist',
  },
  submitArtistPreference: {
    method: 'POST',
    path: '/preferences/artist/submit',
    status: 200,
    tag: 'preferences',
    account: 'artist',
    idempotencyKey: true,
    summary: 'Save the artist preferences',
  },
  submitLabelPreference: {
    method: 'POST',
    path: '/preferences/label/submit',
    status: 200,
    tag: 'preferences',
    account: 'label',
    idempotencyKey: true,
    summary: 'Save the label preferences and add or update its artists',
  },
  removeLabelArtist: {
    method: 'POST',
    path: '/preferences/label/artist/remove',
    status: 200,
    tag: 'preferences',
    account: 'label',
    idempotencyKey: true,
    summary: 'Stop managing an artist',
  },

  searchStreamingA: {
    method: 'GET',
    path: '/preferences/search-streaming-a',
    status: 200,
    tag: 'artist-platforms',
    query: ['q', 'limit'],
    summary: 'Search artists on streaming service A',
  },
  searchVideoChannel: {
    method: 'GET',
    path: '/preferences/search-video-channel',
    status: 200,
    tag: 'artist-platforms',
    query: ['q', 'limit'],
    summary: 'Search channels on video service B',
  },
  searchStoreC: {
    method: 'GET',
    path: '/preferences/search-store-c',
    status: 200,
    tag: 'artist-platforms',
    query: ['q', 'limit'],
    summary: 'Search artists on store C',
  },
  getStreamingAArtist: {
    method: 'GET',
    path: '/preferences/get-streaming-a-artist',
    status: 200,
    tag: 'artist-platforms',
    query: ['url'],
    summary: 'Resolve a streaming service A artist link',
  },
  getVideoChannel: {
    method: 'GET',
    path: '/preferences/get-video-channel',
    status: 200,
    tag: 'artist-platforms',
    query: ['url'],
    summary: 'Resolve a video service B channel link',
  },
  getStoreCArtist: {
    method: 'GET',
    path: '/preferences/get-store-c-artist',
    status: 200,
    tag: 'artist-platforms',
    query: ['url'],
    summary: 'Resolve a store C artist link',
  },
  getArtistViaLink: {
    method: 'GET',
    path: '/preferences/artist-via-link',
    status: 200,
    tag: 'artist-platforms',
    query: ['url', 'platform'],
    summary: 'Resolve an artist link on a named platform',
  },
  searchArtistPlatform: {
    method: 'POST',
    path: '/preferences/search/artist-platform',
    status: 200,
    tag: 'artist-platforms',
    idempotencyKey: true,
    summary: 'Search artists on several platforms at once',
  },
  getArtistViaUrl: {
    method: 'POST',
    path: '/preferences/artist/get-artist-via-url',
    status: 200,
    tag: 'artist-platforms',
    idempotencyKey: true,
    summary: 'Resolve an artist link, detecting the platform',
  },

  getCountries: { method: 'GET', path: '/lookup/countries', status: 200, tag: 'lookups', summary: 'List countries (ISO 3166-1)' },
  getPlatforms: { method: 'GET', path: '/lookup/platforms', status: 200, tag: 'lookups', summary: 'List delivery and artist platforms' },
  getGenres: { method: 'GET', path: '/lookup/genres', status: 200, tag: 'lookups', summary: 'List genres' },
  getLanguages: { method: 'GET', path: '/lookup/languages', status: 200, tag: 'lookups', summary: 'List languages (ISO 639-1)' },
} as const satisfies Record<string, Route>;

export type EndpointId = keyof typeof routes;
export const endpointIds = Object.keys(routes) as EndpointId[];

/** The `{names}` of a path, as a union: `'/releases/{releaseId}/tracks/{trackId}'` → `'releaseId' | 'trackId'`. */
export type PathParamName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamName<Rest> : never;
/** The path parameters of an endpoint: each an EntityId, the integer the answers carry. */
export type ParamsOf<Id extends EndpointId> = { readonly [K in PathParamName<(typeof routes)[Id]['path']>]: number };

/**
 * The sandbox's review controls: what the distributor's review team and the stores would do to a
 * release. Served only by a service running as a sandbox (elsewhere 404), under /_sandbox so they
 * never mix with the endpoints of the service above.
 */
/** One review control: POST /_sandbox/releases/{releaseId}/<action>, replayable under an Idempotency-Key. */
const sandboxControl = <Action extends string>(action: Action, summary: string) =>
  ({
    method: 'POST',
    path: `/_sandbox/releases/{releaseId}/${action}`,
    status: 200,
    tag: 'sandbox',
    idempotencyKey: true,
    summary,
  }) as const satisfies Route;

export const sandboxRoutes = {
  sandboxApprove: sandboxControl('approve', 'Approve a release in review (in_review → approved)'),
  sandboxReject: sandboxControl('reject', 'Reject a release in review with reason codes (in_review → rejected)'),
  sandboxWithdraw: sandboxControl('withdraw', 'Take a release back from review (in_review → draft)'),
  sandboxDeliver: sandboxControl('deliver', 'Deliver an approved release to the stores (approved → delivered)'),
  sandboxGoLive: sandboxControl('go-live', 'Put a delivered release live (delivered → live)'),
  sandboxTakeDown: sandboxControl('take-down', 'Take a release down from the stores (delivered | live → taken_down)'),
} as const satisfies Record<string, Route>;

export type SandboxEndpointId = keyof typeof sandboxRoutes;
export const sandboxEndpointIds = Object.keys(sandboxRoutes) as SandboxEndpointId[];

/** Every mutation honours an Idempotency-Key, whether or not the client sends one by itself. */
export const acceptsIdempotencyKey = (route: Pick<Route, 'method'>): boolean => route.method !== 'GET';

/** Names of the path parameters of a route, in order: `/releases/{releaseId}` → `['releaseId']`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * A path's segments as the integers they spell: only plain decimal digits (no sign, no leading
 * zero, no exponent) become numbers; anything else stays text, which no EntityId matches (404).
 */
export function pathIdsOf(raw: Record<string, string>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(raw).map(([name, text]) => [name, /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : text]));
}

/** Fills a route's path; every value is URI-encoded so an id can never change the path. */
export function buildPath(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Idempotency-Key values: 1 to 255 visible ASCII characters. */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/** Paging bounds, shared by the service and the client. */
export const paging = { defaultPage: 1, defaultPerPage: 20, maxPerPage: 100, searchDefaultLimit: 10, searchMaxLimit: 50 } as const;
