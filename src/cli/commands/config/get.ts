import { defineCommand } from '../../command.js';

export const getCommand = defineCommand({
  name: 'get',
  args: '<key>',
  summary: 'Print the value of a setting',
  examples: ['reldist config get timeout', 'reldist config get base_url --profile ci'],
  async run(ctx, _opts, [key]) {
    const { settingValue } = await import('./values.js');
    const v = settingValue(ctx, key!);
    const { printJson } = await import('../../output/index.js');
    if (ctx.globals.json) printJson(ctx, v.value ?? null);
    else if (v.value !== undefined) ctx.io.stdout.write(`${v.value}\n`);
  },
});
