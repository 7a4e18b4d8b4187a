import type { Context } from '../../context.js';
import type { ReleaseResource } from '../../../contract/index.js';
import { parseReleaseRef, resolveReleaseRef } from '../../shared/release-ref.js';
import { showRelease } from './show.js';

export async function run(ctx: Context, _opts: Record<string, unknown>, args: string[]): Promise<void> {
  const ref = parseReleaseRef(args[0]);
  const client = await ctx.services.client();
  const { id } = await resolveReleaseRef(client, args[0], ctx.signal, ref);
  const release = await client.call('getRelease', { params: { releaseId: id } });
  await showRelease(ctx, release);
}
