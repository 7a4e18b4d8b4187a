import { defineCommand } from '../../command.js';
import { OUTPUT_HELP, configureValidate } from './options.js';
import type { ValidateOptions } from './run.js';

export const upcCommand = defineCommand<ValidateOptions>({
  name: 'upc',
  args: '[codes...]',
  summary: 'check UPC/EAN/GTIN release codes (offline, or --remote)',
  description: `Accepts 12 digits (UPC-A), 13 (EAN-13) or 14 with a leading 0 (GTIN-14); spaces and
hyphens are ignored. Gives the reason for each invalid code (the length, the bad character and
its position, or the check digit it should have).

${OUTPUT_HELP}`,
  examples: [
    'reldist validate upc 036000241457',
    'reldist validate upc --file upcs.txt --json > results.jsonl',
    'cut -f1 catalog.tsv | reldist validate upc - --quiet',
    'reldist validate upc 036000241457 --remote --release rel_123',
  ],
  configure: (cmd) => configureValidate(cmd, 'upc'),
  async run(ctx, opts, args) {
    const { runValidate } = await import('./run.js');
    await runValidate(ctx, 'upc', opts, args);
  },
});
