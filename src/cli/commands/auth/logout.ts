import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readConfig, updateConfig } from '../../config/store.js';
import { success, note, printJson } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const { data } = readConfig(ctx.env);
  const profile = ctx.globals.profile ?? (ctx.env.RELDIST_PROFILE || undefined) ?? data.settings?.profile ?? 'default';
  if (!data.profiles?.[profile]) {
    throw new UsageError(`not logged in with profile "${profile}"`, 'see `reldist auth status`');
  }
  await updateConfig(ctx.env, (c) => {
    delete c.profiles?.[profile];
    if (c.settings?.profile === profile) delete c.settings.profile;
  });
  if (ctx.globals.json) printJson(ctx, { profile, logged_out: true });
  else success(ctx, `Logged out of profile ${profile}`);
  if (ctx.env.RELDIST_TOKEN) note(ctx, 'note: RELDIST_TOKEN is still set in the environment');
}
