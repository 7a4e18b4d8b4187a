import { defineCommand } from '../../command.js';

interface Opts {
  platform?: string;
  limit?: string;
}

const SEARCH_ENDPOINT = { streaming_a: 'searchStreamingA', video_b: 'searchVideoChannel', store_c: 'searchStoreC' } as const;

export const searchCommand = defineCommand<Opts>({
  name: 'search',
  args: '<name>',
  summary: "Find an artist's profiles on streaming service A, video service B and store C",
  description: `With --platform, asks that platform's search; without it, searches all three at once (POST /preferences/search/artist-platform). --json prints one array of profiles either way.`,
  examples: ['reldist artist search "Nina Vale"', 'reldist artist search "Nina Vale" --platform store_c --limit 3', 'reldist artist search Nina --json'],
  configure(cmd) {
    cmd.option('-p, --platform <platform>', 'only this platform: streaming_a, video_b or store_c');
    cmd.option('-L, --limit <n>', 'at most this many profiles per platform (1-50)');
  },
  async run(ctx, opts, args) {
    const { api, intOption, platformOption } = await import('../release/common.js');
    const { UsageError } = await import('../../errors.js');
    const { printList } = await import('../../output/index.js');
    const { profileColumns } = await import('./view.js');
    type Result = import('../../../contract/index.js').ArtistPlatformResult;
    const name = (args[0] ?? '').trim();
    if (!name) throw new UsageError('artist search: expected a name to search for', 'e.g. reldist artist search "Nina Vale"');
    const limit = intOption(opts.limit, '--limit', 1, 50);
    const platform = platformOption(opts.platform);
    const client = await api(ctx);
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
  },
});
