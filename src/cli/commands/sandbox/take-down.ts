import type { Context } from '../../context.js';
import { runControl } from './control.js';

export async function run(ctx: Context, _opts: Record<string, unknown>, args: string[]): Promise<void> {
  await runControl(ctx, 'sandboxTakeDown', args, {});
}
