// The `validate` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup } from '../../command.js';
import { ANY_OPTIONS, ISRC_OPTIONS, OUTPUT_HELP, UPC_OPTIONS } from './options.js';

export const isrcCommand = defineCommand({
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
  options: ISRC_OPTIONS,
});

export const upcCommand = defineCommand({
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
  options: UPC_OPTIONS,
});

export const anyCommand = defineCommand({
  name: 'any',
  args: '[codes...]',
  summary: 'check UPCs and ISRCs mixed, recognising the kind of each code (offline)',
  description: `What \`reldist validate <code>…\` runs. A code with a letter in it
(other than the E of scientific notation such as 3.6E+11) is checked as an
ISRC, any other as a UPC/EAN/GTIN, with the rules of \`validate isrc\` and
\`validate upc\`. A table's column is found by a header naming either kind.
Offline only: for the service's verdict use \`validate upc\` or
\`validate isrc\` with --remote.

${OUTPUT_HELP}`,
  examples: ['reldist validate any 036000241457 US-RC1-76-07839', 'reldist validate any --file catalog.csv --column 2'],
  options: ANY_OPTIONS,
});

export const validateGroup = defineGroup({
  name: 'validate',
  summary: 'Check UPC/EAN and ISRC codes, offline and in bulk',
  examples: ['reldist validate 036000241457 US-RC1-76-07839', 'reldist validate upc 036000241457', 'reldist validate isrc --file isrcs.txt --json'],
  commands: [upcCommand, isrcCommand, anyCommand],
  // `reldist validate <code>…` recognises each code's kind. Every code has a digit (a table's
  // header is told apart the same way): a first word without one is a mistyped verb.
  defaultCommand: { name: 'any', takes: (word) => /[0-9]/.test(word) },
});
