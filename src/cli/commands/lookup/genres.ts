import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const genres = await (await ctx.services.client()).call('getGenres');
  await printList(ctx, genres, [{ header: 'GENRE', value: (g) => g }]);
}
