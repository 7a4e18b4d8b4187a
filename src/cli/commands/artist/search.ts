import type { ArtistPlatformResult as Result } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import type { SearchOpts } from './spec.js';
import { SEARCH_ENDPOINT } from './spec.js';
import { UsageError } from '../../errors.js';
import { intOption, platformOption } from '../../shared/args.js';
import { printList } from '../../output/index.js';
import { profileColumns } from './view.js';

export async function run(ctx: Context, opts: SearchOpts, args: string[]): Promise<void> {
  const name = (args[0] ?? '').trim();
  if (!name) throw new UsageError('artist search: expected a name to search for', 'e.g. reldist artist search "Nina Vale"');
  const limit = intOption(opts.limit, '--limit', 1, 50);
  const platform = platformOption(opts.platform);
  const client = await ctx.services.client();
  let rows: Result[];
  if (platform) {
    rows = await client.call(SEARCH_ENDPOINT[platform], { query: { q: name, limit } });
  } else {
    const data = await client.call('searchArtistPlatform', {
      body: { name, ...(limit !== undefined ? { limit } : {}) },
    });
    rows = data.results.flatMap((r) => r.artists);
  }
  await printList(ctx, rows, profileColumns, { empty: `no profiles found for "${name}"` });
}
