import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { isrcCommand } from './spec.js';
import { checkCodes } from './check-codes.js';

export async function run(ctx: Context, opts: OptsOf<typeof isrcCommand>, args: string[]): Promise<void> {
  await checkCodes(ctx, 'isrc', opts, args);
}
