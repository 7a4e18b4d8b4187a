import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';

export const logoutCommand = defineCommand({
  name: 'logout',
  summary: 'Forget the token and base URL saved in a profile',
  examples: ['reldist auth logout', 'reldist auth logout --profile ci'],
  async run(ctx) {
    const { readConfig, updateConfig } = await import('../../config/store.js');
    const { data } = readConfig(ctx.env);
    const profile = ctx.globals.profile ?? (ctx.env.RELDIST_PROFILE || undefined) ?? data.settings?.profile ?? 'default';
    if (!data.profiles?.[profile]) {
      throw new UsageError(`not logged in with profile "${profile}"`, 'see `reldist auth status`');
    }
    await updateConfig(ctx.env, (c) => {
      delete c.profiles?.[profile];
      if (c.settings?.profile === profile) delete c.settings.profile;
    });
    const { success, note, printJson } = await import('../../output/index.js');
    if (ctx.globals.json) printJson(ctx, { profile, logged_out: true });
    else success(ctx, `Logged out of profile ${profile}`);
    if (ctx.env.RELDIST_TOKEN) note(ctx, 'note: RELDIST_TOKEN is still set in the environment');
  },
});
