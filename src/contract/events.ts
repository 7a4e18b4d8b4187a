// The event log on the wire: what GET /events answers. One event per change to a release (its
// fields, tracks, review and delivery state) or a file arriving for it, recorded in the same
// transaction as the change, so a committed change always has its event and a failed one none.
import * as z from 'zod';
import { EntityId, ReleaseStatus, ReleaseType, Timestamp } from './common.js';
import { eventTypes } from './wire-values.js';

const exampleTime = '2026-11-22T10:15:00.000Z';

export const EventType = z.enum(eventTypes).meta({ id: 'EventType', examples: ['release.approved'] });
export type EventType = z.infer<typeof EventType>;

export const EventActor = z
  .object({
    kind: z.enum(['user', 'system']).meta({
      description: "user: a request made with an account's token (the sandbox controls included); system: the service on its own (the sandbox's auto-review).",
    }),
    user_id: EntityId.nullable(),
    name: z.string().nullable().meta({ description: "The user's name at the time, or what the system part is." }),
    request_id: z.string().nullable().meta({ description: 'The X-Request-Id of the request that made the change; null for the system.' }),
  })
  .meta({ id: 'EventActor', description: 'Who made the change.', examples: [{ kind: 'user', user_id: 1, name: 'Ada Moreau', request_id: 'req_9b1f0c6d2a' }] });
export type EventActor = z.infer<typeof EventActor>;

export const FieldChange = z
  .object({
    field: z
      .string()
      .meta({ description: 'Dot-separated path in the resource: upc, delivery.release_date, video.content_id.policy; a list (artists) is one field.' }),
    old: z.unknown().meta({ description: 'The value before, as the resource shows it (null when unset).' }),
    new: z.unknown().meta({ description: 'The value after.' }),
  })
  .meta({ id: 'FieldChange', examples: [{ field: 'upc', old: '5063489000013', new: '5063489000020' }] });
export type FieldChange = z.infer<typeof FieldChange>;

const TrackRef = z
  .object({ track_id: EntityId, disc: z.number().int().min(1), position: z.number().int().min(1), title: z.string() })
  .meta({ id: 'EventTrackRef', examples: [{ track_id: 7, disc: 1, position: 1, title: 'Northern Sky' }] });

const Transition = { from: ReleaseStatus, to: ReleaseStatus };

/** Each type's payload; the envelope is the same for all. */
const payloads = {
  'release.created': z.object({ title: z.string(), type: ReleaseType }),
  'release.updated': z.object({
    changes: z
      .array(FieldChange)
      .min(1)
      .meta({ description: 'Every field the write changed, old → new; status too when an edit made a rejected release a draft again.' }),
  }),
  'release.tracks_changed': z.object({
    added: z.array(TrackRef),
    removed: z.array(TrackRef),
    changed: z
      .array(z.object({ track_id: EntityId, changes: z.array(FieldChange).min(1) }))
      .meta({ description: "Tracks kept, with the fields that changed (file is the file's key and name)." }),
    changes: z
      .array(FieldChange)
      .meta({ description: "The release's own fields the write changed too: status, when it made a rejected release a draft again; usually empty." }),
  }),
  'release.submitted': z.object({
    ...Transition,
    notes: z.string().nullable(),
    assigned: z
      .object({ upc: z.string().nullable(), isrcs: z.array(z.object({ track_id: EntityId, isrc: z.string() })) })
      .meta({ description: 'Codes the service assigned at this submit (null/empty when the release had its own).' }),
  }),
  'release.approved': z.object(Transition),
  'release.rejected': z.object({ ...Transition, codes: z.array(z.string()), notes: z.string().nullable() }),
  'release.withdrawn': z.object(Transition),
  'release.delivered': z.object(Transition),
  'release.live': z.object(Transition),
  'release.taken_down': z.object(Transition),
  'release.deleted': z.object({ status: ReleaseStatus.meta({ description: 'The state it was deleted from.' }), title: z.string() }),
  'upload.ready': z.object({
    key: z.string(),
    filename: z.string(),
    format: z.enum(['wav', 'flac', 'aiff']),
    sample_rate: z.number().int().positive(),
    bit_depth: z.number().int().positive(),
    channels: z.number().int().positive(),
    duration_ms: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
  }),
} as const satisfies Record<EventType, z.ZodObject>;

/** The payload of one type of event. */
export type EventData<T extends EventType> = z.output<(typeof payloads)[T]>;

const envelope = {
  id: z
    .number()
    .int()
    .positive()
    .meta({ description: 'Stable and unique: the same change is always this id. Ids grow in the order changes committed; pass one as `after`.' }),
  created_at: Timestamp.meta({ description: 'When the change took effect (an auto-review: when it was due).' }),
  account_id: EntityId.meta({ description: 'The account whose release changed.' }),
  release_id: EntityId,
  catalog_number: z.string().nullable().meta({ description: "The release's catalog number after the change (before it, for a deletion)." }),
  actor: EventActor,
};

function eventOf<T extends EventType>(type: T) {
  return z.object({ ...envelope, type: z.literal(type), data: payloads[type] });
}

export const EventResource = z
  .discriminatedUnion('type', [
    eventOf('release.created'),
    eventOf('release.updated'),
    eventOf('release.tracks_changed'),
    eventOf('release.submitted'),
    eventOf('release.approved'),
    eventOf('release.rejected'),
    eventOf('release.withdrawn'),
    eventOf('release.delivered'),
    eventOf('release.live'),
    eventOf('release.taken_down'),
    eventOf('release.deleted'),
    eventOf('upload.ready'),
  ])
  .meta({
    id: 'EventResource',
    description: 'One change, as recorded in the same transaction as the change. `data` depends on `type`.',
    examples: [
      {
        id: 1042,
        type: 'release.updated',
        created_at: exampleTime,
        account_id: 1,
        release_id: 42,
        catalog_number: 'NLR-0042',
        actor: { kind: 'user', user_id: 1, name: 'Ada Moreau', request_id: 'req_9b1f0c6d2a' },
        data: { changes: [{ field: 'upc', old: '5063489000013', new: '5063489000020' }] },
      },
    ],
  });
export type EventResource = z.infer<typeof EventResource>;

export const ListEventsResponse = z
  .object({
    data: z.array(EventResource).meta({ description: 'Oldest first.' }),
    has_more: z.boolean().meta({ description: 'More events match after this page: ask again at once with `after` = cursor.' }),
    cursor: z.number().int().min(0).meta({
      description:
        "Pass as `after` to read on: the last event's id, or the `after` asked with when the page is empty (0, before the first event, when none was given).",
    }),
  })
  .meta({
    id: 'ListEventsResponse',
    examples: [
      {
        data: [
          {
            id: 1043,
            type: 'release.approved',
            created_at: exampleTime,
            account_id: 1,
            release_id: 42,
            catalog_number: 'NLR-0042',
            actor: { kind: 'user', user_id: 1, name: 'Ada Moreau', request_id: 'req_4c2e7a1b90' },
            data: { from: 'in_review', to: 'approved' },
          },
        ],
        has_more: false,
        cursor: 1043,
      },
    ],
  });
export type ListEventsResponse = z.infer<typeof ListEventsResponse>;
