import type { Context } from '../../context.js';
import type { ListOpts } from './spec.js';
import type { ListReleasesResponse } from '../../../contract/index.js';
import { paging } from '../../../contract/routes.js';
import { STATUSES, TYPES } from './spec.js';
import { UsageError } from '../../errors.js';
import { choiceOption, intOption } from '../../shared/args.js';
import { releaseColumns } from '../../shared/release-views.js';
import { plural, printList, progress, writeStderr } from '../../output/index.js';
import { printListPages } from '../../output/list-pages.js';

export async function run(ctx: Context, opts: ListOpts): Promise<void> {
  const query = {
    status: choiceOption(opts.status, '--status', STATUSES),
    type: choiceOption(opts.type, '--type', TYPES),
    search: opts.search?.trim() || undefined,
    catalog_number: opts.catalogNumber?.trim() || undefined,
    page: intOption(opts.page, '--page', 1, 100_000),
    perPage: intOption(opts.perPage, '--per-page', 1, 100),
  };
  if (opts.all && query.page !== undefined) throw new UsageError('--all and --page do not go together', 'pass one of them');
  if (opts.all) {
    // The one-shot transport (node:http), not undici: a walk of 1,000 pages cost 10% less CPU
    // without undici's load and WASM parser (docs/performance.md, "Batches").
    const client = await ctx.services.client();
    const bar = progress(ctx, 'Fetching releases', { unit: 'items' });
    // The largest pages unless told otherwise: fewer round trips. Printed as they come, so memory
    // does not grow with the catalog; the next pages are asked for while one is printed.
    const pages = client.pages(
      'listReleases',
      { query: { ...query, perPage: query.perPage ?? paging.maxPerPage } },
      { onPage: (page, total) => bar.update(page, total), ahead: 2 },
    );
    await printListPages(ctx, pages, releaseColumns, { empty: 'no releases found', fetched: () => bar.done() });
    return;
  }
  const res = await (await ctx.services.client()).call('listReleases', { query });
  unprinted(ctx, res.meta, res.data.length);
  await printList(ctx, res.data, releaseColumns, { empty: 'no releases found' });
}

/**
 * A page never passes for the whole list: when the service holds more releases than were printed,
 * stderr says how many and how to get them (piped and with --json too; stdout keeps only data).
 */
function unprinted(ctx: Context, meta: ListReleasesResponse['meta'], shown: number): void {
  const { page, total_pages, total } = meta;
  if (ctx.globals.quiet || shown >= total) return;
  const next = page < total_pages ? `--page ${page + 1} for the next page, ` : '';
  writeStderr(
    ctx,
    `showing ${shown} of ${plural(total, 'release')} (page ${page} of ${total_pages}); ${next}--per-page 100 for bigger pages, --all for every release\n`,
  );
}
