// `label artists list`: the artists you can release as (GET /preferences/artists).
import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';

import { preferenceArtistColumns } from '../../shared/label-artist-views.js';

export async function run(ctx: Context): Promise<void> {
  const rows = await (await ctx.services.client()).call('listPreferenceArtists');
  await printList(ctx, rows, preferenceArtistColumns, { empty: 'no artists yet; add one with `reldist prefs label --add-artist <name>`' });
}
