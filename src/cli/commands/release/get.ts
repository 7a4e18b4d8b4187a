import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { parseReleaseRef, resolveReleaseRef } from '../../shared/release-ref.js';
import { showRelease } from './show.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, args: string[]): Promise<void> {
  const ref = parseReleaseRef(args[0]);
  const client = await ctx.services.client();
  const { id } = await resolveReleaseRef(client, args[0], ctx.signal, ref);
  const release = await client.call('getRelease', { params: { releaseId: id } });
  await showRelease(ctx, release);
}
