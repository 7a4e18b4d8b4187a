// The query and path parameters of the endpoints: all a GET's request needs checked. Apart from
// the bodies (bodies.ts) and the answers (resources.ts) so that the service, which builds its
// schemas on a route's first request, builds only these for a read (docs/startup.md).
import * as z from 'zod';
import { artistLinkDescription } from './artist-links.js';
import { ArtistLink, ArtistPlatform, EntityId, LimitQuery, PageQuery, PerPageQuery, ReleaseStatus, ReleaseType } from './common.js';
import { pathParamNames, type EndpointId } from './routes.js';
import { eventsMaxWaitSeconds, eventsPage, eventTypes, webhookDeliveriesPage, webhookDeliveryStatuses } from './wire-values.js';

// Non-blank: the pattern says in JSON Schema what trim-then-min(1) says to zod.
const SearchQuery = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .meta({ pattern: '\\S', examples: ['Nina Vale'] });
const CatalogNumberQuery = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .meta({
    pattern: '\\S',
    description: 'Exact catalog number, compared trimmed and case-insensitively.',
    examples: ['NLR-0042'],
  });
const linkQuery = (platform: ArtistPlatform) => z.strictObject({ url: ArtistLink([platform]) });
const allPlatforms = ArtistPlatform.options;
const searchQuery = z.strictObject({ q: SearchQuery, limit: LimitQuery.optional() });

/** The query of an endpoint that takes none: any parameter is unknown (400 invalid_query). */
export const noQuery = z.strictObject({});

/** The query of each endpoint that takes one; `as const satisfies` keeps each entry's own type. */
export const querySchemas = {
  listReleases: z.strictObject({
    status: ReleaseStatus.optional(),
    type: ReleaseType.optional(),
    search: SearchQuery.optional().meta({ description: 'Part of a title, an artist name, a UPC or a catalog number.' }),
    catalog_number: CatalogNumberQuery.optional(),
    include: z
      .enum(['tracks'])
      .optional()
      .meta({ description: 'tracks: each release with its tracks, as GET /releases/{releaseId} has them (one request for a page of whole releases).' }),
    page: PageQuery.optional(),
    perPage: PerPageQuery.optional(),
  }),
  getLabelPreferences: z.strictObject({
    search: SearchQuery.optional(),
    page: PageQuery.optional(),
    perPage: PerPageQuery.optional(),
    limit: PerPageQuery.optional().meta({ description: 'Legacy name of perPage; perPage wins when both are given.' }),
  }),
  listEvents: z.strictObject({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "An event id (a page's cursor): the events after it. Absent: from the first.", examples: [1042] }),
    last: z.coerce
      .number()
      .int()
      .min(1)
      .max(eventsPage.maxLimit)
      .optional()
      .meta({ description: 'The newest N matching events instead (oldest first); not with after.', examples: [10] }),
    type: z
      .enum(eventTypes)
      .optional()
      .meta({ description: 'Only events of this type.', examples: ['release.approved'] }),
    release_id: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: "Only this release's events.", examples: [42] }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(eventsPage.maxLimit)
      .optional()
      .meta({ description: `At most this many events (default ${eventsPage.defaultLimit}).`, examples: [eventsPage.defaultLimit] }),
    wait: z.coerce
      .number()
      .int()
      .min(0)
      .max(eventsMaxWaitSeconds)
      .optional()
      .meta({
        description: `Seconds to wait for a matching event when there is none yet (long poll; default 0, at most ${eventsMaxWaitSeconds}): answered as soon as one commits, else empty with the same cursor.`,
        examples: [25],
      }),
  }),
  listUploads: z.strictObject({
    state: z
      .enum(['receiving', 'complete'])
      .optional()
      .meta({ description: 'Only uploads in parts still arriving (receiving), or only complete ones; both without it.', examples: ['receiving'] }),
  }),
  listWebhookDeliveries: z.strictObject({
    event_id: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: 'Only the deliveries of this event.', examples: [1043] }),
    status: z
      .enum(webhookDeliveryStatuses)
      .optional()
      .meta({ description: 'Only deliveries in this state.', examples: ['failed'] }),
    before: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: "A page's cursor: the deliveries older than it.", examples: [88] }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(webhookDeliveriesPage.maxLimit)
      .optional()
      .meta({ description: `At most this many (default ${webhookDeliveriesPage.defaultLimit}).`, examples: [webhookDeliveriesPage.defaultLimit] }),
  }),
  searchStreamingA: searchQuery,
  searchVideoChannel: searchQuery,
  searchStoreC: searchQuery,
  getStreamingAArtist: linkQuery('streaming_a'),
  getVideoChannel: linkQuery('video_b'),
  getStoreCArtist: linkQuery('store_c'),
  getArtistViaLink: z.strictObject({
    url: ArtistLink(allPlatforms).meta({
      description: `${artistLinkDescription(allPlatforms)} It must be of the platform named by \`platform\` (else 400 invalid_query).`,
    }),
    platform: ArtistPlatform,
  }),
} as const satisfies Partial<Record<EndpointId, z.ZodObject>>;

/** A path's `{names}`, each an EntityId: the same integer as in the answers (routes.ts `pathIdsOf` reads them from the path's text). */
export function pathParamsOf(path: string): z.ZodObject {
  return z.strictObject(Object.fromEntries(pathParamNames(path).map((n) => [n, EntityId])));
}

/** The query schema of any endpoint (undefined when it takes none), for code that holds an id of no particular endpoint. */
export function querySchemaOf(id: EndpointId): z.ZodObject | undefined {
  const table: Partial<Record<EndpointId, z.ZodObject>> = querySchemas;
  return table[id];
}
