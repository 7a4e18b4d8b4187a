import type { Context } from '../../context.js';
import { printList } from '../../output/index.js';
import { settingValue } from './values.js';
import { settings } from '../../config/settings.js';

export async function run(ctx: Context): Promise<void> {
  const rows = Object.entries(settings).map(([key, spec]) => ({ key, ...settingValue(ctx, key), description: spec.description }));
  await printList(
    ctx,
    rows,
    [
      { header: 'KEY', value: 'key' },
      { header: 'VALUE', value: 'value' },
      { header: 'DESCRIPTION', value: 'description', cut: true },
    ],
    { json: Object.fromEntries(rows.map((r) => [r.key, r.value ?? null])) },
  );
}
