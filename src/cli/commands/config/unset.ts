import { defineCommand } from '../../command.js';

export const unsetCommand = defineCommand({
  name: 'unset',
  args: '<key>',
  summary: 'Return a setting to its default',
  examples: ['reldist config unset timeout'],
  async run(ctx, _opts, [key]) {
    const { settingSpec } = await import('../../config/settings.js');
    const { updateConfig } = await import('../../config/store.js');
    const { activeProfile } = await import('./values.js');
    const spec = settingSpec(key!);
    const profile = activeProfile(ctx);
    await updateConfig(ctx.env, (c) => {
      if (spec.perProfile) delete (c.profiles?.[profile] as Record<string, unknown> | undefined)?.[key!];
      else delete c.settings?.[key!];
    });
    const { success } = await import('../../output/index.js');
    success(ctx, `Unset ${key}`);
  },
});
