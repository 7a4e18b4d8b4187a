import { defineCommand } from '../../command.js';
import { collect } from '../release/flags.js';

interface Opts {
  search?: string;
  page?: string;
  perPage?: string;
  limit?: string;
  name?: string;
  defaultPLineOwner?: string;
  defaultCLineOwner?: string;
  defaultGenre?: string;
  defaultLanguage?: string;
  addArtist?: string[];
  file?: string;
}

export const labelCommand = defineCommand<Opts>({
  name: 'label',
  summary: "Show or set the label's defaults and the artists it manages",
  description: `Without settings flags, shows the label's settings and a page of its artists (--search, --page, --per-page; --limit is the service's legacy name of --per-page). With settings flags or --file, saves them (POST /preferences/label/submit) and shows the result. --file takes the request body as JSON or YAML: {name, default_p_line_owner, default_c_line_owner, default_genre, default_language, artists: [{id?, name, platforms?}]}. --json prints the service's object.`,
  examples: [
    'reldist prefs label',
    'reldist prefs label --search nina --per-page 5',
    'reldist prefs label --default-genre Electronic --default-language en --add-artist "Kai Moreno"',
    'reldist prefs label --file label.yaml',
  ],
  configure(cmd) {
    cmd.option('--search <text>', 'show only artists whose name contains this');
    cmd.option('--page <n>', 'the page of artists to show');
    cmd.option('--per-page <n>', 'artists per page (1-100)');
    cmd.option('--limit <n>', 'legacy name of --per-page');
    cmd.option('--name <name>', 'set: the label name');
    cmd.option('--default-p-line-owner <owner>', 'set: the default ℗ owner of new releases');
    cmd.option('--default-c-line-owner <owner>', 'set: the default © owner of new releases');
    cmd.option('--default-genre <genre>', 'set: the default genre (from `reldist lookup genres`)');
    cmd.option('--default-language <code>', 'set: the default metadata language');
    cmd.option('--add-artist <name>', 'set: start managing an artist (repeatable)', collect);
    cmd.option('-f, --file <file>', 'set: the settings as a JSON/YAML file');
  },
  async run(ctx, opts) {
    const { api, intOption } = await import('../release/common.js');
    const { printJson, printRecord, renderOptions, success } = await import('../../output/index.js');
    const { renderList } = await import('../../output/render.js');
    const { labelArtistColumns } = await import('../label/view.js');
    type Data = import('../../../contract/index.js').LabelPreferencesData;
    // Every flag is checked before anything is saved: a bad --page must not follow a saved change.
    const query = {
      search: opts.search?.trim() || undefined,
      page: intOption(opts.page, '--page', 1, 100_000),
      perPage: intOption(opts.perPage, '--per-page', 1, 100),
      limit: intOption(opts.limit, '--limit', 1, 100),
    };
    const client = await api(ctx);
    const sets: [keyof Opts, string][] = [
      ['name', 'name'], ['defaultPLineOwner', 'default_p_line_owner'], ['defaultCLineOwner', 'default_c_line_owner'],
      ['defaultGenre', 'default_genre'], ['defaultLanguage', 'default_language'],
    ];
    if (opts.file !== undefined || opts.addArtist !== undefined || sets.some(([k]) => opts[k] !== undefined)) {
      const { SubmitLabelPreferenceRequest } = await import('../../../contract/index.js');
      const { loadDataFile } = await import('../../release-file/data-file.js');
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
      ctx.io.stdout.write(`\n${await renderList(data.artists, labelArtistColumns, renderOptions(ctx))}`);
    }
  },
});
