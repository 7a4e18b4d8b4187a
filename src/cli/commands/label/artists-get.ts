// `label artists get <id>`: one artist the label manages.
import type { Context } from '../../context.js';
import { printRecord } from '../../output/index.js';
import { api, idArg } from '../release/common.js';
import { labelArtistFields } from './view.js';

export async function getArtist(ctx: Context, rawId: string | undefined): Promise<void> {
  const id = idArg(rawId, 'artist id');
  const artist = await (await api(ctx)).call('getLabelArtist', { params: { id } });
  await printRecord(ctx, artist, labelArtistFields);
}
