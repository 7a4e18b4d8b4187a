import { defineCommand } from '../../command.js';

export const platformsCommand = defineCommand({
  name: 'platforms',
  summary: 'List the stores a release can go to, and the platforms artist profiles live on',
  description: `Store ids are the values for --platforms of a release; artist platforms are the values of --platform for \`artist search\` and \`artist resolve\`. --json prints the service's object {stores, artist_platforms}.`,
  examples: ['reldist lookup platforms', 'reldist lookup platforms --json | jq -r ".stores[].id"'],
  async run(ctx) {
    const { api } = await import('../release/common.js');
    const { printJson, printList } = await import('../../output/index.js');
    const data = await (await api(ctx)).call('getPlatforms');
    if (ctx.globals.json) return printJson(ctx, data);
    const rows = [
      ...data.stores.map((s) => ({ id: s.id, name: s.name, use: `store (${s.kind})` })),
      ...data.artist_platforms.map((p) => ({ id: p.id, name: p.name, use: 'artist profiles' })),
    ];
    await printList(ctx, rows, [
      { header: 'ID', value: 'id' },
      { header: 'NAME', value: 'name' },
      { header: 'USE', value: 'use' },
    ]);
  },
});
