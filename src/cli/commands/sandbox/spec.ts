// The `sandbox` group as --help and shell completion see it: the review controls of a sandbox
// service (what the distributor's review team and the stores would do). Declarations only; each
// verb's code is in <verb>.ts (see ../runners.ts), all through control.ts.
import { defineCommand, defineGroup, type CommandSpec } from '../../command.js';

const collectCodes = (v: string, prev: string[] = []) => [...prev, ...v.split(',').map((c) => c.trim()).filter(Boolean)];

const ABOUT = `Each release is an id (all digits) or a catalog number. One line per release on stdout: its id and new state (tab-separated when piped); --json prints {release_id, catalog_number, status, error}: the object for one release, an array for several. Exit status: the worst of the releases. Only a sandbox has these controls: \`reldist serve\` and the embedded sandbox (no service configured).`;

function control(name: string, summary: string, from: string): CommandSpec {
  return defineCommand({
    name,
    args: '<releases...>',
    summary,
    description: `${from}\n\n${ABOUT}`,
    examples: [`reldist sandbox ${name} 42`, `reldist sandbox ${name} NLR-0042 43 --json`],
  });
}

export interface RejectOpts {
  reason?: string[];
  message?: string;
}

export const rejectCommand = defineCommand<RejectOpts>({
  name: 'reject',
  args: '<releases...>',
  summary: 'Reject releases in review, with reason codes',
  description: `in review → rejected. --reason is required (snake_case codes; repeat it or separate with commas); --message adds the reviewer's notes. \`release get\` and \`release watch\` show both.\n\n${ABOUT}`,
  examples: ['reldist sandbox reject 42 --reason artwork_low_resolution --message "The cover is 1400 px; we need 3000 px."'],
  configure(cmd) {
    cmd.option('--reason <code>', 'a reason code, e.g. artwork_low_resolution (repeatable, or comma-separated)', collectCodes);
    cmd.option('--message <text>', "the reviewer's notes");
  },
});

export const sandboxGroup = defineGroup({
  name: 'sandbox',
  summary: "Review, deliver and take down releases on a sandbox",
  examples: ['reldist sandbox approve 42', 'reldist sandbox reject 42 --reason artwork_low_resolution', 'reldist sandbox go-live NLR-0042'],
  commands: [
    control('approve', 'Approve releases in review', 'in review → approved.'),
    rejectCommand,
    control('deliver', 'Deliver approved releases to the stores', 'approved → delivered.'),
    control('go-live', 'Put delivered releases live', 'delivered → live.'),
    control('withdraw', 'Take releases back from review', 'in review → draft.'),
    control('take-down', 'Take releases down from the stores', 'delivered or live → taken down.'),
  ],
});
