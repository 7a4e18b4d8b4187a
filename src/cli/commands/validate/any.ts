import type { Context } from '../../context.js';
import type { ValidateOptions } from './check-codes.js';
import { checkCodes } from './check-codes.js';

export async function run(ctx: Context, opts: ValidateOptions, args: string[]): Promise<void> {
  await checkCodes(ctx, 'any', opts, args);
}
