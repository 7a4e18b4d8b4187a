// Values and helpers of the wire that need no schema: plain data, so the service can use them
// without loading zod (its schemas are built on a route's first request: docs/startup.md).
// It imports nothing: the schemas' modules import it, and the two helpers below are typed by the
// bodies they are given (ReplaceReleaseTracksBody, RemoveLabelArtistBody).

/** The states of a release (the ReleaseStatus enum's values), for code that must tell one without zod. */
export const releaseStatuses = ['draft', 'in_review', 'approved', 'rejected', 'delivered', 'live', 'taken_down'] as const;

/** The ReleaseType, Explicit, PriceTier and ContentIdPolicy enums' values: plain, for flags and shell completion. */
export const releaseTypes = ['single', 'ep', 'album', 'compilation'] as const;
export const explicitValues = ['explicit', 'not_explicit', 'clean'] as const;
export const priceTiers = ['budget', 'mid', 'front', 'premium'] as const;
export const contentIdPolicies = ['monetize', 'track', 'block'] as const;

/**
 * The kinds of event GET /events answers (the EventType enum's values), for the service, which
 * records them without zod. `release.*` events concern one release; `upload.ready` a file that
 * arrived for one.
 */
export const eventTypes = [
  'release.created',
  'release.updated',
  'release.tracks_changed',
  'release.submitted',
  'release.approved',
  'release.rejected',
  'release.withdrawn',
  'release.delivered',
  'release.live',
  'release.taken_down',
  'release.deleted',
  'upload.ready',
] as const;

/** The longest GET /events waits for an event (seconds): below the idle timeouts of the service and of clients (docs/api.md). */
export const eventsMaxWaitSeconds = 30;
/** The most events one GET /events answers, and the default. */
export const eventsPage = { defaultLimit: 100, maxLimit: 500 } as const;

/** The three external artist platforms, by the specification's neutral names (the ArtistPlatform enum's values). */
export const artistPlatformIds = ['streaming_a', 'video_b', 'store_c'] as const;

/**
 * The content types PUT /uploads/{key} is declared to take: createTrackUploadUrl (createArtworkUploadUrl: its images) instructs the
 * file's declared type when it is one of these, else application/octet-stream.
 */
export const uploadContentTypes = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/flac',
  'audio/x-flac',
  'audio/aiff',
  'audio/x-aiff',
  'image/jpeg',
  'image/png',
  'application/octet-stream',
] as const;

/** The Content-Type to send an upload with, given the type declared for the file. */
export function uploadContentTypeFor(declared: string): (typeof uploadContentTypes)[number] {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  return uploadContentTypes.find((t) => t === type) ?? 'application/octet-stream';
}

/** A track list write's tracks, sent bare or as `{tracks}`. */
export function tracksOf<Track>(body: Track[] | { tracks: Track[] }): Track[] {
  return Array.isArray(body) ? body : body.tracks;
}

/** The artist a removal names, sent bare or as `{artist_id}`. */
export function artistIdOf<Id extends string | number>(body: Id | { artist_id: Id }): Id {
  return typeof body === 'object' ? body.artist_id : body;
}

/** Webhook endpoints: the most per account, the longest URL, the longest description. */
export const webhookLimits = { maxPerAccount: 20, urlMaxLength: 2000, descriptionMaxLength: 200 } as const;
/** A rotated secret's overlap (seconds): both secrets sign until it ends. Default 24 h, at most 7 days, 0 cuts the old one at once. */
export const webhookRotationOverlap = { defaultSeconds: 86_400, maxSeconds: 7 * 86_400 } as const;
/** The states of a delivery (the WebhookDeliveryStatus enum's values). */
export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
/** The most deliveries one GET /webhooks/{webhookId}/deliveries answers, and the default. */
export const webhookDeliveriesPage = { defaultLimit: 20, maxLimit: 100 } as const;
/** The `type` of the ping `POST /webhooks/{webhookId}/test` sends, which is no event of the log. */
export const webhookTestType = 'webhook.test';

/**
 * The body of a webhook delivery, as Standard Webhooks lays a payload out (the WebhookPayload
 * schema): the type, when it is sent, and the event. The one place it is built: the service's
 * deliveries and `reldist webhook listen` both send these bytes, which the signature covers.
 */
export function webhookBody(type: string, data: unknown, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** The webhook-id of an event's deliveries: the same on every attempt and every resend. */
export const webhookMessageId = (eventId: number): string => `evt_${eventId}`;

/**
 * A part's checksum (an upload in parts, docs/api.md), as tus's checksum extension writes it:
 * `Upload-Checksum: <algorithm> <base64 of the digest>`; crc32 (IEEE, big-endian, as zlib's) or sha256.
 */
export const uploadChecksumAlgorithms = ['crc32', 'sha256'] as const;
export type UploadChecksumAlgorithm = (typeof uploadChecksumAlgorithms)[number];
const CHECKSUM_BYTES: Record<UploadChecksumAlgorithm, number> = { crc32: 4, sha256: 32 };

/** `crc32 AAAAAA==` → its algorithm and canonical text; undefined when it is not one of ours, well formed. */
export function parseUploadChecksum(header: string | undefined): { algorithm: UploadChecksumAlgorithm; text: string } | undefined {
  const m = /^\s*([a-z0-9]+)\s+([A-Za-z0-9+/]+={0,2})\s*$/.exec(header ?? '');
  const algorithm = uploadChecksumAlgorithms.find((a) => a === m?.[1]);
  if (!m || !algorithm || Buffer.from(m[2]!, 'base64').length !== CHECKSUM_BYTES[algorithm]) return undefined;
  return { algorithm, text: `${algorithm} ${Buffer.from(m[2]!, 'base64').toString('base64')}` };
}

/** The header's text for a crc32 (a number, as zlib.crc32 answers) or a sha256 (its bytes). */
export function uploadChecksumText(algorithm: UploadChecksumAlgorithm, digest: number | Uint8Array): string {
  const bytes = typeof digest === 'number' ? Buffer.from([digest >>> 24, (digest >>> 16) & 0xff, (digest >>> 8) & 0xff, digest & 0xff]) : Buffer.from(digest);
  return `${algorithm} ${bytes.toString('base64')}`;
}
