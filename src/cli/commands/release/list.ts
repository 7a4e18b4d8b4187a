import { defineCommand } from '../../command.js';

interface Opts {
  status?: string;
  type?: string;
  search?: string;
  page?: string;
  perPage?: string;
  all?: boolean;
}

const STATUSES = ['draft', 'in_review', 'approved', 'rejected', 'delivered', 'live', 'taken_down'] as const;
const TYPES = ['single', 'ep', 'album', 'compilation'] as const;

export const listCommand = defineCommand<Opts>({
  name: 'list',
  summary: 'List your releases, newest first',
  description: `One page at a time (--page, --per-page up to 100), or every page with --all. --json prints one array of releases (with --all too); a table on a terminal; tab-separated rows when piped: id, status, type, title, artists, tracks, UPC, updated (ISO 8601).`,
  examples: [
    'reldist release list',
    'reldist release list --status draft --search "northern"',
    'reldist release list --all --json | jq -r ".[] | select(.status == \\"rejected\\") | .id"',
  ],
  aliases: ['ls'],
  configure(cmd) {
    cmd.option('--status <status>', `only releases in this state: ${STATUSES.join(', ')}`);
    cmd.option('--type <type>', `only this type: ${TYPES.join(', ')}`);
    cmd.option('--search <text>', 'only releases whose title, artist, UPC or catalog number contains this');
    cmd.option('--page <n>', 'the page to show (from 1)');
    cmd.option('--per-page <n>', 'releases per page (1-100, default 20)');
    cmd.option('--all', 'walk every page and print them all');
  },
  async run(ctx, opts) {
    const { api, choiceOption, intOption, releaseColumns } = await import('./common.js');
    const { UsageError } = await import('../../errors.js');
    const { note, printList, progress } = await import('../../output/index.js');
    type ReleaseResource = import('../../../contract/index.js').ReleaseResource;
    const query = {
      status: choiceOption(opts.status, '--status', STATUSES),
      type: choiceOption(opts.type, '--type', TYPES),
      search: opts.search?.trim() || undefined,
      page: intOption(opts.page, '--page', 1, 100_000),
      perPage: intOption(opts.perPage, '--per-page', 1, 100),
    };
    if (opts.all && query.page !== undefined) throw new UsageError('--all and --page do not go together', 'pass one of them');
    let rows: ReleaseResource[];
    if (opts.all) {
      const client = await api(ctx, 'long');
      const bar = progress(ctx, 'Fetching releases', { unit: 'items' });
      rows = await client.all('listReleases', { query }, (page, total) => bar.update(page, total));
      bar.done();
    } else {
      const res = await (await api(ctx)).call('listReleases', { query });
      rows = res.data;
      const { page, total_pages, total } = res.meta;
      if (!ctx.globals.json && ctx.io.stderrIsTTY && total_pages > 1) {
        note(ctx, `page ${page} of ${total_pages} (${total} releases); --page ${Math.min(page + 1, total_pages)} for more, --all for every page`);
      }
    }
    await printList(ctx, rows, releaseColumns, { empty: 'no releases found' });
  },
});
