// `label artists get <id>`: one artist the label manages.
import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { printRecord } from '../../output/index.js';
import { idArg } from '../../shared/args.js';
import { labelArtistFields } from '../../shared/label-artist-views.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, args: string[]): Promise<void> {
  const rawId = args[0];
  const id = idArg(rawId, 'artist id');
  const artist = await (await ctx.services.client()).call('getLabelArtist', { params: { id } });
  await printRecord(ctx, artist, labelArtistFields);
}
