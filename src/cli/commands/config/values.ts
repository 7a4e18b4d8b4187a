// Reading settings for `config get|list`: global ones from `settings`, per-profile ones from the
// active profile (--profile, RELDIST_PROFILE, the `profile` setting, else "default").
import type { Context } from '../../context.js';
import { readConfig } from '../../config/store.js';
import { settingSpec } from '../../config/settings.js';

export function activeProfile(ctx: Context): string {
  const { data } = readConfig(ctx.env);
  return ctx.globals.profile ?? (ctx.env.RELDIST_PROFILE || undefined) ?? data.settings?.profile ?? 'default';
}

export function settingValue(ctx: Context, key: string): { value: string | undefined } {
  const spec = settingSpec(key);
  const { data } = readConfig(ctx.env);
  if (spec.perProfile) {
    const profile = data.profiles?.[activeProfile(ctx)] as Record<string, unknown> | undefined;
    const v = profile?.[key];
    return { value: typeof v === 'string' ? v : undefined };
  }
  return { value: data.settings?.[key] };
}
