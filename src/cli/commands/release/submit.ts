import type { Context } from '../../context.js';
import type { SubmitOpts } from './spec.js';
import { idArg } from '../../shared/args.js';
import { submitOne, reportOutcomes } from './submission.js';

export async function run(ctx: Context, opts: SubmitOpts, args: string[]): Promise<void> {
  const ids = args.map((a) => idArg(a, 'release id'));
  const client = await ctx.services.client();
  const outcomes = [];
  // One after another: the answers come back in the order asked, and the service is not flooded.
  for (const id of ids) outcomes.push(await submitOne(client, id, { dryRun: Boolean(opts.dryRun), notes: opts.notes }));
  await reportOutcomes(ctx, outcomes, { dryRun: Boolean(opts.dryRun), single: ids.length === 1 });
}
