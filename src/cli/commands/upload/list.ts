// `upload list [--incomplete]`: the account's uploads no track or cover names yet.
import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';
import type { ListOpts } from './spec.js';
import { uploadColumns } from './views.js';

export async function run(ctx: Context, opts: ListOpts): Promise<void> {
  const client = await ctx.services.client();
  const uploads = await client.call('listUploads', { query: opts.incomplete ? { state: 'receiving' } : {}, signal: ctx.signal });
  await printList(ctx, uploads, uploadColumns, {
    empty: opts.incomplete ? 'no uploads in parts arriving' : 'no uploads waiting to be attached',
  });
}
