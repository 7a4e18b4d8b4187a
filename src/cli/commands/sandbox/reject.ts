import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { runControl } from './control.js';
import type { RejectOpts } from './spec.js';

export async function run(ctx: Context, opts: RejectOpts, args: string[]): Promise<void> {
  const codes = opts.reason ?? [];
  if (codes.length === 0) throw new UsageError('--reason: give at least one reason code, e.g. --reason artwork_low_resolution');
  const bad = codes.find((c) => !/^[a-z][a-z0-9_]{0,63}$/.test(c));
  if (bad !== undefined) throw new UsageError(`--reason: "${bad}" is not a reason code (snake_case: lower-case letters, digits and _)`);
  // --notes: the hidden other name of --message.
  const notes = opts.message ?? opts.notes;
  await runControl(ctx, 'sandboxReject', args, { codes, ...(notes !== undefined ? { notes } : {}) });
}
