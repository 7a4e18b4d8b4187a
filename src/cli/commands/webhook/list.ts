// `webhook list`: the account's endpoints, never their secrets.
import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';
import { endpointColumns } from './views.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.services.client();
  const hooks = await client.call('listWebhooks', { signal: ctx.signal });
  await printList(ctx, hooks, endpointColumns, { empty: 'no webhook endpoints (add one with `reldist webhook create <url>`)' });
}
