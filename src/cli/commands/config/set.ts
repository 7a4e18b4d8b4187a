import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { setCommand } from './spec.js';
import { activeProfile } from './values.js';
import { settingSpec } from '../../config/settings.js';
import { success } from '../../output/index.js';
import { updateConfig, type ConfigData } from '../../config/store.js';
import { UsageError } from '../../errors.js';

export async function run(ctx: Context, _opts: OptsOf<typeof setCommand>, args: string[]): Promise<void> {
  const [key, value] = args;
  const spec = settingSpec(key!);
  const parsed = spec.parse(value!);
  const profile = activeProfile(ctx);
  await updateConfig(ctx.env, (c) => {
    if (key === 'profile') refuseMissingProfile(c, parsed);
    if (spec.perProfile) {
      c.profiles ??= {};
      c.profiles[profile] = { ...c.profiles[profile], [key!]: parsed };
    } else {
      c.settings = { ...c.settings, [key!]: parsed };
    }
  });
  success(ctx, spec.perProfile ? `Set ${key} = ${parsed} (profile ${profile})` : `Set ${key} = ${parsed}`);
}

/** The `profile` setting names a saved profile: a typo is refused now, not at the next command. */
function refuseMissingProfile(c: ConfigData, name: string): void {
  if (c.profiles?.[name]) return;
  const saved = Object.keys(c.profiles ?? {});
  throw new UsageError(
    `profile: no profile named "${name}"${saved.length > 0 ? ` (saved: ${saved.join(', ')})` : ' (none saved)'}`,
    `create it first with \`reldist auth login --profile ${name}\``,
  );
}
