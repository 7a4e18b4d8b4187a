import type { Context } from '../../context.js';
import { printJson, printList } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const data = await (await ctx.services.client()).call('getPlatforms');
  if (ctx.globals.json) return printJson(ctx, data);
  const rows = [
    ...data.stores.map((s) => ({ id: s.id, name: s.name, use: `store (${s.kind})` })),
    ...data.artist_platforms.map((p) => ({ id: p.id, name: p.name, use: 'artist profiles' })),
  ];
  await printList(ctx, rows, [
    { header: 'ID', value: 'id' },
    { header: 'NAME', value: 'name', cut: true },
    { header: 'USE', value: 'use' },
  ]);
}
