import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { unsetCommand } from './spec.js';
import { activeProfile } from './values.js';
import { settingSpec } from '../../config/settings.js';
import { success } from '../../output/index.js';
import { updateConfig } from '../../config/store.js';

export async function run(ctx: Context, _opts: OptsOf<typeof unsetCommand>, args: string[]): Promise<void> {
  const [key] = args;
  const spec = settingSpec(key!);
  const profile = activeProfile(ctx);
  await updateConfig(ctx.env, (c) => {
    if (spec.perProfile) delete (c.profiles?.[profile] as Record<string, unknown> | undefined)?.[key!];
    else delete c.settings?.[key!];
  });
  success(ctx, `Unset ${key}`);
}
