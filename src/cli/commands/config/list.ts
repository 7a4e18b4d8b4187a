import { defineCommand } from '../../command.js';

export const listCommand = defineCommand({
  name: 'list',
  summary: 'List the settings with their values',
  examples: ['reldist config list', 'reldist config list --json'],
  aliases: ['ls'],
  async run(ctx) {
    const { settings } = await import('../../config/settings.js');
    const { settingValue } = await import('./values.js');
    const rows = Object.entries(settings).map(([key, spec]) => ({ key, ...settingValue(ctx, key), description: spec.description }));
    const { printList } = await import('../../output/index.js');
    await printList(ctx, rows, [
      { header: 'KEY', value: 'key' },
      { header: 'VALUE', value: 'value' },
      { header: 'DESCRIPTION', value: 'description' },
    ], { json: Object.fromEntries(rows.map((r) => [r.key, r.value ?? null])) });
  },
});
