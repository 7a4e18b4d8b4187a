// The `sandbox` group as --help and shell completion see it: the review controls of a sandbox
// service (what the distributor's review team and the stores would do). Declarations only; each
// verb's code is in <verb>.ts (see ../runners.ts), all through control.ts.
import { hiddenAlias, defineCommand, defineGroup, option, type OptsOf } from '../../command.js';

const collectCodes = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean),
];

const ABOUT = `Each release is named by its id or its catalog number; id:42 or cat:42 settles a catalog number that looks like an id. One line per release on stdout: its id and new state (tab-separated when piped); --json prints {release_id, catalog_number, status, error}: the object for one release, an array for several. Exit status: the worst of the releases. Only a sandbox has these controls: \`reldist serve\` and the embedded sandbox (no service configured).`;

function control(name: string, summary: string, from: string) {
  return defineCommand({
    name,
    args: '<releases...>',
    summary,
    description: `${from}\n\n${ABOUT}`,
    examples: [`reldist sandbox ${name} 42`, `reldist sandbox ${name} NLR-0042 43 --json`],
  });
}

export const approveCommand = control('approve', 'Approve releases in review', 'in review → approved.');
export const deliverCommand = control('deliver', 'Deliver approved releases to the stores', 'approved → delivered.');
export const goLiveCommand = control('go-live', 'Put delivered releases live', 'delivered → live.');
export const withdrawCommand = control('withdraw', 'Take releases back from review', 'in review → draft.');
export const takeDownCommand = control('take-down', 'Take releases down from the stores', 'delivered or live → taken down.');

export type RejectOpts = OptsOf<typeof rejectCommand>;

export const rejectCommand = defineCommand({
  name: 'reject',
  args: '<releases...>',
  summary: 'Reject releases in review, with reason codes',
  description: `in review → rejected. --reason is required (snake_case codes; repeat it or separate with commas); --message adds the reviewer's notes. \`release get\` and \`release watch\` show both.\n\n${ABOUT}`,
  examples: ['reldist sandbox reject 42 --reason artwork_low_resolution --message "The cover is 1400 px; we need 3000 px."'],
  options: [
    option('--reason <code>', 'a reason code, e.g. artwork_low_resolution (repeatable, or comma-separated)', collectCodes),
    option('-m, --message <text>', "the reviewer's notes"),
    hiddenAlias('--notes <text>', '--message'),
  ],
});

export type PruneOpts = OptsOf<typeof pruneCommand>;

export const pruneCommand = defineCommand({
  name: 'prune',
  summary: "Free a sandbox's disk: uploads attached to no track, orphan and partial files",
  description:
    "Works on the data directory directly (the embedded sandbox's by default, or --data-dir for a `reldist serve` one), " +
    'safe while services run over it. Removes the uploaded files no track names (all, or those uploaded more than ' +
    '--older-than ago: 30m, 12h), files with no record, and partial uploads no live process is writing. Files attached ' +
    'to tracks are never touched; an upload key removed here is refused when attached later (upload the file again). ' +
    'Says what it freed on stderr; --json prints {data_dir, freed_bytes, unattached, orphans, partials} on stdout, ' +
    'each part {count, bytes}. A running service does the same by itself for uploads left unattached past its ' +
    'expiry (24h by default: `reldist serve --upload-expiry`).',
  examples: ['reldist sandbox prune', 'reldist sandbox prune --older-than 1h --json', 'reldist sandbox prune --data-dir /srv/reldist-sandbox'],
  options: [
    option('--older-than <duration>', 'only uploads received longer ago than this, e.g. 30m or 12h (default: all unattached)'),
    option('--data-dir <dir>', "the service's data directory (default: the embedded sandbox's, the user data folder)"),
  ],
});

export const sandboxGroup = defineGroup({
  name: 'sandbox',
  summary: 'Review, deliver and take down releases on a sandbox; free its disk',
  examples: [
    'reldist sandbox approve 42',
    'reldist sandbox reject 42 --reason artwork_low_resolution',
    'reldist sandbox go-live NLR-0042',
    'reldist sandbox prune',
  ],
  commands: [approveCommand, rejectCommand, deliverCommand, goLiveCommand, withdrawCommand, takeDownCommand, pruneCommand],
});
