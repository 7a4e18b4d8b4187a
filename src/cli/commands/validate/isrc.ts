import { defineCommand } from '../../command.js';
import { OUTPUT_HELP, configureValidate } from './options.js';
import type { ValidateOptions } from './run.js';

export const isrcCommand = defineCommand<ValidateOptions>({
  name: 'isrc',
  args: '[codes...]',
  summary: 'check ISRCs (offline, or --remote)',
  description: `Accepts CC-XXX-YY-NNNNN with or without hyphens or spaces, in any case, with or
without a leading "ISRC". Shows the display form; an unknown country or agency prefix and a year
after this one are warnings, not errors.

${OUTPUT_HELP}`,
  examples: [
    'reldist validate isrc US-RC1-76-07839',
    'reldist validate isrc --file isrcs.txt --json > results.jsonl',
    'reldist validate isrc - < isrcs.txt',
    'reldist validate isrc USRC17607839 --remote',
  ],
  configure: (cmd) => configureValidate(cmd, 'isrc'),
  async run(ctx, opts, args) {
    const { runValidate } = await import('./run.js');
    await runValidate(ctx, 'isrc', opts, args);
  },
});
