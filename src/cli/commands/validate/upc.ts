import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { upcCommand } from './spec.js';
import { checkCodes } from './check-codes.js';

export async function run(ctx: Context, opts: OptsOf<typeof upcCommand>, args: string[]): Promise<void> {
  await checkCodes(ctx, 'upc', opts, args);
}
