import type { Context } from '../../context.js';
import type { SubmitOpts } from './spec.js';
import { parseReleaseRef, resolveReleaseRefs } from '../../shared/release-ref.js';
import { submitMany } from './submit-batches.js';
import { submitOne, reportOutcomes } from './submission.js';

export async function run(ctx: Context, opts: SubmitOpts, args: string[]): Promise<void> {
  for (const a of args) parseReleaseRef(a);
  const client = await ctx.services.client();
  // Each named as given (a release named twice is answered twice, as the batch endpoint does).
  const ids = (await resolveReleaseRefs(client, args, ctx.signal, { dedupe: false })).map((r) => r.id);
  const options = { dryRun: Boolean(opts.dryRun), notes: opts.message ?? opts.notes };
  // One release: the single endpoint, whose error is the command's own; several: the batches.
  const outcomes = ids.length === 1 ? [await submitOne(client, ids[0]!, options)] : await submitMany(client, ids, options);
  // Printed once all are answered, in the order given.
  await reportOutcomes(ctx, outcomes, { dryRun: options.dryRun, single: ids.length === 1 });
}
