import { defineCommand } from '../../command.js';

export const setCommand = defineCommand({
  name: 'set',
  args: '<key> <value>',
  summary: 'Change a setting (tokens are not settings: see `reldist auth login`)',
  examples: ['reldist config set timeout 60', 'reldist config set profile ci', 'reldist config set base_url https://api.example.com --profile staging'],
  async run(ctx, _opts, [key, value]) {
    const { settingSpec } = await import('../../config/settings.js');
    const { updateConfig } = await import('../../config/store.js');
    const { activeProfile } = await import('./values.js');
    const spec = settingSpec(key!);
    const parsed = spec.parse(value!);
    const profile = activeProfile(ctx);
    await updateConfig(ctx.env, (c) => {
      if (spec.perProfile) {
        c.profiles ??= {};
        c.profiles[profile] = { ...c.profiles[profile], [key!]: parsed };
      } else {
        c.settings = { ...c.settings, [key!]: parsed };
      }
    });
    const { success } = await import('../../output/index.js');
    success(ctx, spec.perProfile ? `Set ${key} = ${parsed} (profile ${profile})` : `Set ${key} = ${parsed}`);
  },
});
