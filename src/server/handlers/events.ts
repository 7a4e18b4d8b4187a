// GET /events: the account's event log in order, after a cursor, filtered by type and release;
// with `wait`, a long poll that answers as soon as a matching event commits (bus.ts), or empty
// with the same cursor when the wait ends. Bounded (eventsMaxWaitSeconds), so it answers before
// any idle timeout of the service or of a client.
import type { ListEventsResponse } from '../../contract/events.js';
import { eventsPage } from '../../contract/wire-values.js';
import { ServiceError, type HandlerMap, type ServerDeps } from '../handler.js';
import { waitForEvent, waitsEnded } from '../events/bus.js';
import { eventsAfter, lastEvents, type EventFilter } from '../store/events.js';
import { nextReviewDue, settleDueReviews } from './sandbox.js';

/** A wait ends at least this often to settle a sandbox review falling due meanwhile. */
const MIN_SLICE_MS = 20;

/** How long until the user's next sandbox auto-review is due, when it falls within `ms`. */
function untilReviewDue(deps: ServerDeps, userId: number, ms: number): number {
  if (!deps.sandbox) return ms;
  const due = nextReviewDue(deps, userId);
  if (due === null) return ms;
  return Math.min(ms, Math.max(MIN_SLICE_MS, Date.parse(due) - deps.now().getTime()));
}

export const handlers: HandlerMap = {
  async listEvents({ user, query, raw }, deps): Promise<ListEventsResponse> {
    if (query.after !== undefined && query.last !== undefined) {
      throw new ServiceError(400, 'invalid_query', 'give either after (read on from a cursor) or last (the newest events), not both');
    }
    const filter: EventFilter = { type: query.type, releaseId: query.release_id };
    const limit = query.limit ?? eventsPage.defaultLimit;
    if (query.last !== undefined) {
      const events = lastEvents(deps.db, user.id, filter, query.last);
      if (events.length > 0 || !query.wait) return { data: events, has_more: false, cursor: events.at(-1)?.id ?? 0 };
    }
    const after = query.after ?? 0;
    // The wait is measured on the process's own clock: deps.now() may be a test's.
    const deadline = performance.now() + (query.wait ?? 0) * 1000;
    const signal = raw.req.raw.signal;
    for (;;) {
      const page = eventsAfter(deps.db, user.id, filter, after, limit);
      const left = deadline - performance.now();
      if (page.events.length > 0 || left <= 0 || signal.aborted || waitsEnded(deps.db)) {
        return { data: page.events, has_more: page.hasMore, cursor: page.events.at(-1)?.id ?? after };
      }
      await waitForEvent(deps.db, deps.commits, user.id, untilReviewDue(deps, user.id, left), signal);
      // A sandbox review due meanwhile happens now, as it would on any other request of the account.
      settleDueReviews(deps, user.id);
    }
  },
};
