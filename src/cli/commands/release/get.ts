import { defineCommand } from '../../command.js';

export const getCommand = defineCommand({
  name: 'get',
  args: '<id>',
  summary: 'Show one release, with its tracks',
  description: `--json prints the release as the service sends it (snake_case, with its tracks). On a terminal the tracks follow as a table; piped, the output is label<TAB>value lines.`,
  examples: ['reldist release get 42', 'reldist release get 42 --json | jq .delivery'],
  aliases: ['view'],
  async run(ctx, _opts, args) {
    const { api, idArg } = await import('./common.js');
    const { showRelease } = await import('./show.js');
    const id = idArg(args[0], 'release id');
    const release = await (await api(ctx)).call('getRelease', { params: { releaseId: id } });
    await showRelease(ctx, release);
  },
});
