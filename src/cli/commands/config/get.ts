import type { Context } from '../../context.js';
import { printJson } from '../../output/index.js';
import { settingValue } from './values.js';

export async function run(ctx: Context, _opts: Record<string, unknown>, [key]: string[]): Promise<void> {
  const v = settingValue(ctx, key!);
  if (ctx.globals.json) printJson(ctx, v.value ?? null);
  else if (v.value !== undefined) ctx.io.stdout.write(`${v.value}\n`);
}
