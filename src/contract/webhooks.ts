// Webhooks on the wire: the endpoints an account registers (a URL, the event types it wants, a
// secret shown once), the log of deliveries to each, and what a delivery sends (the payload of
// OpenAPI's `webhooks` section). Deliveries follow the Standard Webhooks specification
// (https://www.standardwebhooks.com): headers webhook-id, webhook-timestamp, webhook-signature.
import * as z from 'zod';
import { Text, Timestamp } from './common.js';
import { EventResource, EventType } from './events.js';
import { eventTypes, webhookDeliveryStatuses, webhookLimits, webhookRotationOverlap, webhookTestType } from './wire-values.js';

const exampleTime = '2026-11-22T10:15:00.000Z';
const WebhookId = z.number().int().positive();

export const WebhookEventFilter = z
  .union([z.literal('*'), EventType])
  .meta({ id: 'WebhookEventFilter', description: 'An event type, or * for every type (those added later too).', examples: ['release.approved'] });

const WebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(webhookLimits.urlMaxLength)
  .meta({
    description:
      'Where deliveries are POSTed: http or https. A team service refuses hosts that resolve to loopback, private, link-local or unique-local addresses (IPv4 and IPv6), checked at create and again at each send; a sandbox allows loopback.',
    examples: ['https://hooks.example.com/reldist'],
  });

const WebhookEvents = z
  .array(WebhookEventFilter)
  .min(1)
  .max(eventTypes.length + 1);

const webhookExample = {
  id: 3,
  url: 'https://hooks.example.com/reldist',
  description: 'Release pipeline',
  events: ['release.approved', 'release.rejected'],
  enabled: true,
  created_at: exampleTime,
  updated_at: exampleTime,
  secret_rotated_at: null,
  previous_secret_expires_at: null,
};

export const WebhookEndpoint = z
  .object({
    id: WebhookId,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(WebhookEventFilter).meta({ description: 'The event types delivered to it; ["*"]: all.' }),
    enabled: z.boolean().meta({ description: 'false: paused; events recorded meanwhile are not delivered to it.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    secret_rotated_at: Timestamp.nullable().meta({ description: 'When the secret was last rotated (null: never).' }),
    previous_secret_expires_at: Timestamp.nullable().meta({
      description: 'Until then deliveries carry a signature with the previous secret too (null: no overlap running).',
    }),
  })
  .meta({
    id: 'WebhookEndpoint',
    description: "A URL the account's events are delivered to. Its secret is never shown again after create or rotate.",
    examples: [webhookExample],
  });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: 'The signing secret, in the Standard Webhooks form whsec_<base64>. Shown once: keep it now.' }),
}).meta({
  id: 'WebhookEndpointWithSecret',
  description: 'The endpoint and its signing secret, answered by create and rotate-secret only.',
  examples: [{ ...webhookExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const CreateWebhookRequest = z
  .strictObject({
    url: WebhookUrl,
    events: WebhookEvents.default(['*']).meta({ description: 'Event types to deliver (default ["*"], all).' }),
    description: Text(webhookLimits.descriptionMaxLength).nullable().optional(),
    enabled: z.boolean().default(true),
  })
  .meta({
    id: 'CreateWebhookRequest',
    examples: [{ url: 'https://hooks.example.com/reldist', events: ['release.approved', 'release.rejected'], description: 'Release pipeline' }],
  });

export const UpdateWebhookRequest = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    description: Text(webhookLimits.descriptionMaxLength).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'UpdateWebhookRequest', examples: [{ events: ['*'], enabled: true }] });

export const RotateWebhookSecretRequest = z
  .strictObject({
    overlap_seconds: z
      .number()
      .int()
      .min(0)
      .max(webhookRotationOverlap.maxSeconds)
      .default(webhookRotationOverlap.defaultSeconds)
      .meta({
        description: `How long deliveries are signed with the previous secret too (default ${webhookRotationOverlap.defaultSeconds}, 24 h; 0 stops it at once).`,
      }),
  })
  .meta({ id: 'RotateWebhookSecretRequest', examples: [{ overlap_seconds: 3600 }] });

export const ResendWebhookEventRequest = z
  .strictObject({
    event_id: z.number().int().positive().meta({ description: 'The event (an id of GET /events) to send to this endpoint again, whatever its type.' }),
  })
  .meta({ id: 'ResendWebhookEventRequest', examples: [{ event_id: 1043 }] });

export const TestWebhookRequest = z.strictObject({}).meta({ id: 'TestWebhookRequest', description: 'Nothing: the ping is always the same.', examples: [{}] });

export const WebhookTestResult = z
  .object({
    webhook_id: z.string().meta({ description: 'The webhook-id header the ping carried.' }),
    delivered: z.boolean().meta({ description: 'The endpoint answered 2xx.' }),
    status_code: z.number().int().nullable().meta({ description: 'Its HTTP status (null: no answer).' }),
    error: z.string().nullable().meta({ description: 'Why it was not delivered: a refused address, a timeout, a connection error, a status outside 2xx.' }),
    duration_ms: z.number().int().nonnegative(),
  })
  .meta({ id: 'WebhookTestResult', examples: [{ webhook_id: 'msg_test_4f2a9c1e7b', delivered: true, status_code: 200, error: null, duration_ms: 38 }] });

export const WebhookDeliveryStatus = z.enum(webhookDeliveryStatuses).meta({
  id: 'WebhookDeliveryStatus',
  description: 'pending: not delivered yet (waiting for an attempt); succeeded: a 2xx came back; failed: no 2xx within the retry horizon, no more attempts.',
  examples: ['succeeded'],
});

export const WebhookAttempt = z
  .object({
    attempt: z.number().int().positive(),
    at: Timestamp,
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int().nonnegative(),
  })
  .meta({ id: 'WebhookAttempt', examples: [{ attempt: 1, at: exampleTime, status_code: 200, error: null, duration_ms: 41 }] });

const deliveryExample = {
  id: 88,
  webhook_id: 3,
  event_id: 1043,
  event_type: 'release.approved',
  status: 'succeeded',
  resend: false,
  next_attempt_at: null,
  created_at: exampleTime,
  attempts: [
    { attempt: 1, at: exampleTime, status_code: 503, error: 'answered 503', duration_ms: 12 },
    { attempt: 2, at: '2026-11-22T10:15:05.210Z', status_code: 200, error: null, duration_ms: 9 },
  ],
};

export const WebhookDelivery = z
  .object({
    id: z.number().int().positive(),
    webhook_id: WebhookId,
    event_id: z
      .number()
      .int()
      .positive()
      .meta({ description: 'The event delivered; its webhook-id header is evt_<event_id>, the same on every attempt and every resend.' }),
    event_type: EventType,
    status: WebhookDeliveryStatus,
    resend: z.boolean().meta({ description: 'Asked for with POST /webhooks/{webhookId}/resend.' }),
    next_attempt_at: Timestamp.nullable().meta({ description: 'When the next attempt is due (pending only).' }),
    created_at: Timestamp,
    attempts: z.array(WebhookAttempt).meta({ description: 'Every attempt, oldest first.' }),
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [deliveryExample],
  });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListWebhookDeliveriesResponse = z
  .object({
    data: z.array(WebhookDelivery).meta({ description: 'Newest first.' }),
    has_more: z.boolean(),
    cursor: z.number().int().min(0).meta({ description: "Pass as `before` for the next (older) page: the last delivery's id (0 when the page is empty)." }),
  })
  .meta({ id: 'ListWebhookDeliveriesResponse', examples: [{ data: [deliveryExample], has_more: true, cursor: 88 }] });
export type ListWebhookDeliveriesResponse = z.infer<typeof ListWebhookDeliveriesResponse>;

/**
 * What a delivery POSTs, as Standard Webhooks lays a payload out: the type, when it was sent, and
 * the event exactly as GET /events answers it. The ping of the test endpoint has its own type.
 */
export const WebhookPayload = z
  .discriminatedUnion('type', [
    z.object({
      type: EventType,
      timestamp: Timestamp.meta({ description: 'When this attempt was sent (the webhook-timestamp header, as an ISO time).' }),
      data: EventResource,
    }),
    z.object({
      type: z.literal(webhookTestType),
      timestamp: Timestamp,
      data: z.object({ webhook_id: WebhookId, message: z.string() }),
    }),
  ])
  .meta({
    id: 'WebhookPayload',
    description: 'The body of a delivery. Verify the signature over the raw bytes before parsing them.',
    examples: [
      {
        type: 'release.approved',
        timestamp: exampleTime,
        data: {
          id: 1043,
          type: 'release.approved',
          created_at: exampleTime,
          account_id: 1,
          release_id: 42,
          catalog_number: 'NLR-0042',
          actor: { kind: 'system', user_id: null, name: 'sandbox auto-review', request_id: null },
          data: { from: 'in_review', to: 'approved' },
        },
      },
    ],
  });
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** DELETE /webhooks/{webhookId}: a message, as every delete answers, with an example of its own. */
export const WebhookDeletedResponse = z
  .object({ message: z.string() })
  .meta({ id: 'WebhookDeletedResponse', examples: [{ message: 'Webhook 3 (https://hooks.example.com/reldist) deleted, with its delivery log.' }] });
