// `events list`: every event of the account after --after (or from the first), oldest first; with
// --follow, then the new ones as they happen.
import type { Context } from '../../context.js';
import { intOption } from '../../shared/args.js';
import { eventsAfter } from '../../shared/event-feed.js';
import { note } from '../../output/index.js';
import { filterOf, printEvent } from './print.js';
import type { ListOpts } from './spec.js';

export async function run(ctx: Context, opts: ListOpts): Promise<void> {
  const after = intOption(opts.after, '--after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const client = await ctx.services.client();
  const filter = await filterOf(ctx, client, opts);
  let printed = 0;
  for await (const e of eventsAfter(client, filter, after, ctx.signal, opts.follow === true)) {
    printEvent(ctx, e);
    printed++;
  }
  if (printed === 0) note(ctx, 'no events');
}
