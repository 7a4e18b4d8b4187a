// Flags shared by `validate upc`, `validate isrc` and `validate any`.
import { option, type OptionsOf } from '../../command.js';

const COMMON_OPTIONS = [
  option('-f, --file <path>', 'read codes from a file (- for stdin): one per line (blank lines skipped), or a .csv/.tsv table'),
  option('--column <name|n>', 'CSV/TSV input (any file, or stdin): the column with the codes, by header name or number from 1'),
  option('--invalid-only', 'print only the codes that are invalid (the summary still counts all)'),
  option('--fix', 'add the code with its spreadsheet damage undone (="…", quotes, .0, lost zeros…) and its own verdict'),
  option('--format <csv>', 'write CSV (line, input, verdict, problems, repaired, normalized) to paste back into a spreadsheet'),
] as const;
const REMOTE = option('--remote', 'also ask the service (in batches of 1000) and show both verdicts; it knows the codes your releases use');

export const ANY_OPTIONS = COMMON_OPTIONS;
export const ISRC_OPTIONS = [...COMMON_OPTIONS, REMOTE] as const;
export const UPC_OPTIONS = [...COMMON_OPTIONS, REMOTE, option('--release <id>', 'with --remote: check the UPC for this release')] as const;

/** What the checks read: the flags of `validate upc`, which has them all (the other verbs' are a part of them). */
export type ValidateOptions = OptionsOf<typeof UPC_OPTIONS>;

export const OUTPUT_HELP = `Codes come from the arguments, from stdin for '-' (or when codes are piped in and none
is named), and from --file, in that order; the output keeps input order. On a terminal: a
table (past 200 codes, only those with a problem, as they come). Piped: one tab-separated row
per code, the normalized code in its compact form,
  input<TAB>valid|invalid<TAB>normalized<TAB>reason[<TAB>line[<TAB>column]][<TAB>fixed<TAB>fixed verdict]
(the line when reading a file or stdin, the column for a CSV/TSV table, the last two with --fix).
With --json: JSON Lines (one object per code, even for one code, because it streams):
  {"input":…,"valid":…,"normalized":…,"kind":…,"problems":[…],"line":…}
(with --fix, "fixed" and "fixed_valid" too). A summary (checked, valid, invalid, warnings,
empty lines or cells skipped) goes to stderr unless --quiet.
Exit status 3 when any code is invalid (warnings do not count), 0 otherwise.`;
