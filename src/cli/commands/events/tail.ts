// `events tail`: the newest -n events; with --follow, then every new one as it happens.
import type { Context } from '../../context.js';
import { eventsPage } from '../../../contract/wire-values.js';
import { intOption } from '../../shared/args.js';
import { eventsAfter, lastEventsOf } from '../../shared/event-feed.js';
import { note } from '../../output/index.js';
import { filterOf, printEvent } from './print.js';
import type { TailOpts } from './spec.js';

const DEFAULT_LINES = 10;

export async function run(ctx: Context, opts: TailOpts): Promise<void> {
  const lines = intOption(opts.lines, '--lines', 1, eventsPage.maxLimit) ?? DEFAULT_LINES;
  const client = await ctx.services.client();
  const filter = await filterOf(ctx, client, opts);
  const last = await lastEventsOf(client, filter, lines, ctx.signal);
  for (const e of last.events) printEvent(ctx, e);
  if (!opts.follow) {
    if (last.events.length === 0) note(ctx, 'no events');
    return;
  }
  for await (const e of eventsAfter(client, filter, last.cursor, ctx.signal, true)) printEvent(ctx, e);
}
