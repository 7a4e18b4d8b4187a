import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { idArg } from '../../shared/args.js';
import { trackFields } from '../../shared/track-views.js';
import { printRecord } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, args: string[]): Promise<void> {
  const releaseId = idArg(args[0], 'release id');
  const trackId = idArg(args[1], 'track id');
  const track = await (await ctx.services.client()).call('getTrack', { params: { releaseId, trackId } });
  await printRecord(ctx, track, trackFields);
}
