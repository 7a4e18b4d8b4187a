import type { Context } from '../../context.js';
import type { LabelOpts } from './spec.js';
import { SubmitLabelPreferenceRequest } from '../../../contract/index.js';
import { intOption } from '../../shared/args.js';
import { labelArtistColumns } from '../../shared/label-artist-views.js';
import { loadDataFile } from '../../shared/data-file.js';
import { printJson, printRecord, printTable, success } from '../../output/index.js';

export async function run(ctx: Context, opts: LabelOpts): Promise<void> {
  // Every flag is checked before anything is saved: a bad --page must not follow a saved change.
  const query = {
    search: opts.search?.trim() || undefined,
    page: intOption(opts.page, '--page', 1, 100_000),
    perPage: intOption(opts.perPage, '--per-page', 1, 100),
    limit: intOption(opts.limit, '--limit', 1, 100),
  };
  const client = await ctx.services.client();
  const sets: [keyof LabelOpts, string][] = [
    ['name', 'name'],
    ['defaultPLineOwner', 'default_p_line_owner'],
    ['defaultCLineOwner', 'default_c_line_owner'],
    ['defaultGenre', 'default_genre'],
    ['defaultLanguage', 'default_language'],
  ];
  if (opts.file !== undefined || opts.addArtist !== undefined || sets.some(([k]) => opts[k] !== undefined)) {
    let body: Record<string, unknown> = {};
    if (opts.file !== undefined) {
      body = await loadDataFile(opts.file, '--file', SubmitLabelPreferenceRequest, ctx.io.stdin);
    }
    for (const [k, field] of sets) if (opts[k] !== undefined) body[field] = opts[k];
    if (opts.addArtist) body.artists = [...((body.artists as unknown[]) ?? []), ...opts.addArtist.map((name) => ({ name }))];
    const res = await client.call('submitLabelPreference', { body });
    success(ctx, res.message);
  }
  const data = await client.call('getLabelPreferences', { query });
  if (ctx.globals.json) return printJson(ctx, data);
  await printRecord(ctx, data, [
    { header: 'Label', value: 'label.name' },
    { header: 'Default ℗ owner', value: 'label.default_p_line_owner' },
    { header: 'Default © owner', value: 'label.default_c_line_owner' },
    { header: 'Default genre', value: 'label.default_genre' },
    { header: 'Default language', value: 'label.default_language' },
    { header: 'Artists', value: (d) => `${d.meta.total}${d.meta.total_pages > 1 ? ` (page ${d.meta.page} of ${d.meta.total_pages})` : ''}` },
  ]);
  if (ctx.io.stdoutIsTTY && data.artists.length > 0) {
    await printTable(ctx, data.artists, labelArtistColumns, '\n');
  }
}
