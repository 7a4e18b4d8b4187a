import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const rows = await (await ctx.services.client()).call('getLanguages');
  await printList(ctx, rows, [
    { header: 'CODE', value: 'code' },
    { header: 'NAME', value: 'name', cut: true },
    { header: 'NATIVE NAME', value: 'native_name', cut: true },
  ]);
}
