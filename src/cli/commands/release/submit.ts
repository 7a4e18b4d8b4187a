import type { Context } from '../../context.js';
import type { SubmitOpts } from './spec.js';
import { idArg } from '../../shared/args.js';
import { runPool } from '../../apply/pool.js';
import { submitOne, reportOutcomes, type Internal } from './submission.js';

/**
 * Releases submitted at once: enough to keep the service busy while the answers travel, few
 * enough not to flood it (it takes writers one at a time anyway).
 */
export const SUBMIT_PARALLEL = 8;

export async function run(ctx: Context, opts: SubmitOpts, args: string[]): Promise<void> {
  const ids = args.map((a) => idArg(a, 'release id'));
  const client = await ctx.services.client();
  const options = { dryRun: Boolean(opts.dryRun), notes: opts.notes };
  const outcomes: Internal[] = new Array(ids.length);
  // The same release named twice is submitted after its first mention has its answer, as one
  // after the other would: the second then finds it in review.
  const latest = new Map<string, Promise<unknown>>();
  await runPool(ids, SUBMIT_PARALLEL, async (id, i) => {
    const before = latest.get(id);
    const mine = (before ?? Promise.resolve()).then(async () => {
      outcomes[i] = await submitOne(client, id, options);
    });
    latest.set(id, mine);
    await mine;
  });
  // Printed once all are answered, in the order given.
  await reportOutcomes(ctx, outcomes, { dryRun: options.dryRun, single: ids.length === 1 });
}
