import { defineCommand } from '../../command.js';

export const countriesCommand = defineCommand({
  name: 'countries',
  summary: 'List the countries a release can be delivered to (ISO 3166-1 codes)',
  description: 'Codes for --territories include:DE,FR and for the territories of a release file.',
  examples: ['reldist lookup countries', 'reldist lookup countries | grep -i germany', 'reldist lookup countries --json'],
  async run(ctx) {
    const { api } = await import('../release/common.js');
    const { printList } = await import('../../output/index.js');
    const rows = await (await api(ctx)).call('getCountries');
    await printList(ctx, rows, [
      { header: 'CODE', value: 'code' },
      { header: 'NAME', value: 'name' },
    ]);
  },
});
