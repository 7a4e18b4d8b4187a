import type { Context } from '../../context.js';
import type { ValidateOptions } from './run.js';
import { runValidate } from './run.js';

export async function run(ctx: Context, opts: ValidateOptions, args: string[]): Promise<void> {
  await runValidate(ctx, 'isrc', opts, args);
}
