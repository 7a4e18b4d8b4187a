import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { getCommand } from './spec.js';
import { printJson } from '../../output/index.js';
import { settingValue } from './values.js';

export async function run(ctx: Context, _opts: OptsOf<typeof getCommand>, [key]: string[]): Promise<void> {
  const v = settingValue(ctx, key!);
  if (ctx.globals.json) printJson(ctx, v.value ?? null);
  else if (v.value !== undefined) ctx.io.stdout.write(`${v.value}\n`);
}
