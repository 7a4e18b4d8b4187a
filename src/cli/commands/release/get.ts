import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { idArg } from '../../shared/args.js';
import { showRelease } from './show.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, args: string[]): Promise<void> {
  const id = idArg(args[0], 'release id');
  const release = await (await ctx.services.client()).call('getRelease', { params: { releaseId: id } });
  await showRelease(ctx, release);
}
