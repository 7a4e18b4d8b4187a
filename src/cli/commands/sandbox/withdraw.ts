import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { withdrawCommand } from './spec.js';
import { runControl } from './control.js';

export async function run(ctx: Context, _opts: OptsOf<typeof withdrawCommand>, args: string[]): Promise<void> {
  await runControl(ctx, 'sandboxWithdraw', args, {});
}
