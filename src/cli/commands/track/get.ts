import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { idArg } from '../../shared/args.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackFields } from '../../shared/track-views.js';
import { printRecord } from '../../output/index.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const trackId = idArg(args[1], 'track id');
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  const track = await client.call('getTrack', { params: { releaseId, trackId } });
  await printRecord(ctx, track, trackFields);
}
