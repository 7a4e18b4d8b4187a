// Prints the events of `events list|tail` as they come: a line each (JSON with --json), flushed
// one by one, so a follower piping them on sees each event when it happens.
import type { EventResource } from '../../../contract/events.js';
import type { Context } from '../../context.js';
import { eventLine } from '../../shared/event-views.js';
import { resolveReleaseRefs } from '../../shared/release-ref.js';
import { eventTypeOption } from '../../shared/event-views.js';
import type { FeedFilter } from '../../shared/event-feed.js';
import type { ApiClient } from '../../../client/index.js';
import type { EventsOpts } from './spec.js';

export function printEvent(ctx: Context, e: EventResource): void {
  ctx.io.stdout.write(ctx.globals.json ? `${JSON.stringify(e)}\n` : eventLine(e, ctx.io.stdoutIsTTY));
}

/** --release and --type as the feed's filter (a catalog number looked up among the account's releases). */
export async function filterOf(ctx: Context, client: ApiClient, opts: EventsOpts): Promise<FeedFilter> {
  const type = eventTypeOption(opts.type);
  const release = opts.release === undefined ? undefined : (await resolveReleaseRefs(client, [opts.release], ctx.signal))[0];
  return { type, releaseId: release?.id };
}
