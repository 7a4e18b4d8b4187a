// `label artists list`: the artists you can release as (GET /preferences/artists).
import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';
import { api } from '../release/common.js';
import { preferenceArtistColumns } from './view.js';

export async function listArtists(ctx: Context): Promise<void> {
  const rows = await (await api(ctx)).call('listPreferenceArtists');
  await printList(ctx, rows, preferenceArtistColumns, { empty: 'no artists yet; add one with `reldist prefs label --add-artist <name>`' });
}
