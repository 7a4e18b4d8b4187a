import type { Context } from '../../context.js';
import type { ApiOpts } from './spec.js';
import { runApi } from './run.js';

export async function run(ctx: Context, opts: ApiOpts, args: string[]): Promise<void> {
  await runApi(ctx, { ...opts, rawField: opts.rawField ?? [], field: opts.field ?? [], header: opts.header ?? [] }, args[0]!, args[1]!);
}
