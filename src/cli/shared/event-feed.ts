// Reading GET /events from the CLI: the end of the feed (where following starts), the pages after
// a cursor, and following it live with long polls. A service without the feed (an older one)
// answers 404: `feedEnd` says so with undefined, and the caller falls back (release watch polls).
import { ApiError, type ApiClient } from '../../client/index.js';
import type { EventResource } from '../../contract/events.js';
import { eventsPage } from '../../contract/wire-values.js';
import type { EventType } from './event-views.js';

/** Seconds one long poll may wait: under the client's idle timeout (30 s), so a quiet feed is never a timeout. */
export const FEED_WAIT_SECONDS = 25;

export interface FeedFilter {
  type?: EventType | undefined;
  releaseId?: number | undefined;
}

function queryOf(f: FeedFilter) {
  return { ...(f.type ? { type: f.type } : {}), ...(f.releaseId !== undefined ? { release_id: f.releaseId } : {}) };
}

/** Whether an error says the service has no GET /events (an older service: 404 or 405 on the path). */
export function isNoFeed(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405 || err.status === 501) && err.path.startsWith('/events');
}

/** The newest event's id (0 before any), where following starts; undefined when the service has no feed. */
export async function feedEnd(client: ApiClient, signal: AbortSignal): Promise<number | undefined> {
  try {
    return (await client.call('listEvents', { query: { last: 1 }, signal })).cursor;
  } catch (err) {
    if (isNoFeed(err)) return undefined;
    throw err;
  }
}

/** The newest `last` events matching the filter, oldest first, and the cursor after them. */
export async function lastEventsOf(
  client: ApiClient,
  filter: FeedFilter,
  last: number,
  signal: AbortSignal,
): Promise<{ events: EventResource[]; cursor: number }> {
  const page = await client.call('listEvents', { query: { ...queryOf(filter), last }, signal });
  return { events: page.data, cursor: page.cursor };
}

/**
 * The events after `after`, page by page; with `follow`, then waits for new ones (long polls)
 * until the signal aborts. Each event once, in order.
 */
export async function* eventsAfter(client: ApiClient, filter: FeedFilter, after: number, signal: AbortSignal, follow: boolean): AsyncGenerator<EventResource> {
  let cursor = after;
  for (;;) {
    const page = await client.call('listEvents', {
      query: { ...queryOf(filter), after: cursor, limit: eventsPage.maxLimit, ...(follow ? { wait: FEED_WAIT_SECONDS } : {}) },
      signal,
    });
    yield* page.data;
    cursor = page.cursor;
    if (!follow && !page.has_more) return;
  }
}
