import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { deliverCommand } from './spec.js';
import { runControl } from './control.js';

export async function run(ctx: Context, _opts: OptsOf<typeof deliverCommand>, args: string[]): Promise<void> {
  await runControl(ctx, 'sandboxDeliver', args, {});
}
