// How the webhook commands show endpoints and deliveries, and read --events. Pure.
import type { WebhookDelivery, WebhookEndpoint } from '../../../contract/webhooks.js';
import type { Column, Field } from '../../output/index.js';
import { eventTypes } from '../../../contract/wire-values.js';
import { UsageError } from '../../errors.js';

export type EventFilter = WebhookEndpoint['events'][number];

/** --events: types separated by commas, each as the service names it or without `release.`; * for all. */
export function eventsOption(value: string | undefined, flag = '--events'): EventFilter[] | undefined {
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new UsageError(`${flag}: give event types separated by commas, or *`);
  return [
    ...new Set(
      parts.map((p): EventFilter => {
        if (p === '*') return '*';
        const found = eventTypes.find((t) => t === p || t === `release.${p}`);
        if (!found) throw new UsageError(`${flag}: unknown event type "${p}"; one of ${eventTypes.join(', ')}, or *`);
        return found;
      }),
    ),
  ];
}

export const endpointFields: Field<WebhookEndpoint>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'URL', value: 'url' },
  { header: 'Events', value: (w) => w.events.join(', ') },
  { header: 'Enabled', value: 'enabled', kind: 'bool' },
  { header: 'Description', value: 'description' },
  { header: 'Created', value: 'created_at', kind: 'date' },
  { header: 'Secret rotated', value: 'secret_rotated_at', kind: 'date' },
  { header: 'Old secret signs until', value: 'previous_secret_expires_at', kind: 'date' },
];

export const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'URL', value: 'url' },
  { header: 'EVENTS', value: (w) => w.events.join(','), drop: 2, cut: true },
  { header: 'ENABLED', value: 'enabled', kind: 'bool' },
  { header: 'CREATED', value: 'created_at', kind: 'date', drop: 1 },
];

const lastAttempt = (d: WebhookDelivery) => d.attempts.at(-1);

/** The last attempt's outcome in a few words: its status code, or what went wrong. */
export function lastOutcome(d: WebhookDelivery): string | null {
  const a = lastAttempt(d);
  if (!a) return null;
  return a.status_code !== null && a.error === null ? String(a.status_code) : (a.error ?? String(a.status_code));
}

export const deliveryColumns: Column<WebhookDelivery>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'EVENT', value: 'event_id', kind: 'id' },
  { header: 'TYPE', value: 'event_type' },
  { header: 'STATUS', value: 'status' },
  { header: 'ATTEMPTS', value: (d) => d.attempts.length, kind: 'number' },
  { header: 'LAST', value: lastOutcome, cut: true },
  { header: 'TRIED', value: (d) => lastAttempt(d)?.at ?? null, kind: 'date', drop: 2 },
  { header: 'NEXT', value: 'next_attempt_at', kind: 'date', drop: 1 },
];
