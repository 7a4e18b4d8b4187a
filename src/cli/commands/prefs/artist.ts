import { defineCommand } from '../../command.js';
import { collect } from '../release/flags.js';

interface Opts {
  name?: string;
  platform?: string[];
  file?: string;
}

export const artistCommand = defineCommand<Opts>({
  name: 'artist',
  summary: "Show or set the artist account's name and platform profiles",
  description: `Without flags, shows the preferences. With --name, --platform or --file, saves them (POST /preferences/artist/submit) and shows the result. Per platform, choose an existing profile id (find it with \`reldist artist search\`) or "new" to have one created: a wrong match puts the release on a stranger's page. --file takes the request body as JSON or YAML: {artist_name, platforms: [{platform, mode, profile_id}]}.`,
  examples: [
    'reldist prefs artist',
    'reldist prefs artist --platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb --platform store_c=new',
    'reldist prefs artist --file artist-prefs.yaml --json',
  ],
  configure(cmd) {
    cmd.option('--name <name>', 'the artist name');
    cmd.option('--platform <platform=id|new>', 'a profile choice (repeatable): streaming_a=<id>, video_b=new…', collect);
    cmd.option('-f, --file <file>', 'the preferences as a JSON/YAML file');
  },
  async run(ctx, opts) {
    const { api, PLATFORMS } = await import('../release/common.js');
    const { printRecord, success } = await import('../../output/index.js');
    const { choiceText, parseChoice } = await import('./view.js');
    type Data = import('../../../contract/index.js').ArtistPreferencesData;
    const client = await api(ctx);
    if (opts.name !== undefined || opts.platform !== undefined || opts.file !== undefined) {
      const { SubmitArtistPreferenceRequest } = await import('../../../contract/index.js');
      const { loadDataFile } = await import('../../release-file/data-file.js');
      let body: Record<string, unknown> = {};
      if (opts.file !== undefined) {
        body = await loadDataFile(opts.file, '--file', SubmitArtistPreferenceRequest, ctx.io.stdin);
      }
      if (opts.name !== undefined) body.artist_name = opts.name;
      if (opts.platform !== undefined) body.platforms = opts.platform.map(parseChoice);
      const res = await client.call('submitArtistPreference', { body });
      success(ctx, res.message);
    }
    const data = await client.call('getArtistPreferences');
    await printRecord(ctx, data, [
      { header: 'Artist name', value: 'artist_name' },
      ...PLATFORMS.map((p) => ({
        header: p,
        value: (d: Data) => choiceText(d.platforms.find((c) => c.platform === p)),
      })),
      { header: 'Updated', value: 'updated_at', kind: 'date' as const },
    ]);
  },
});
