import type { Context } from '../../context.js';
import { activeProfile } from './values.js';
import { settingSpec } from '../../config/settings.js';
import { success } from '../../output/index.js';
import { updateConfig } from '../../config/store.js';

export async function run(ctx: Context, _opts: Record<string, unknown>, args: string[]): Promise<void> {
  const [key, value] = args;
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
  success(ctx, spec.perProfile ? `Set ${key} = ${parsed} (profile ${profile})` : `Set ${key} = ${parsed}`);
}
