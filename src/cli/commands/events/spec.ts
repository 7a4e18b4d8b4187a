// The `events` group as --help and shell completion see it: the account's event log (every
// change to its releases, in order), listed or followed live. Declarations only; each verb's code
// is in <verb>.ts (see ../runners.ts).
import { choice, defineCommand, defineGroup, option, RELEASE_REF_HELP, type OptsOf } from '../../command.js';
import { eventTypes } from '../../../contract/wire-values.js';

/** The filters both verbs take. */
const FILTER_FLAGS = [
  option('--release <release>', "only this release's events (an id or a catalog number)"),
  choice('--type <type>', 'only events of this type, e.g. release.approved or approved', eventTypes),
  option('-f, --follow', 'keep printing events as they happen, until Ctrl-C or --timeout'),
] as const;

const OUTPUT = `${RELEASE_REF_HELP} --type is one of ${eventTypes.join(', ')} (the part after "release." is enough: --type approved). --follow goes on printing events as they happen (each request waits up to 25 s for the next) until Ctrl-C or --timeout.

One line per event on stdout: on a terminal its time, release, what happened and who; piped, tab-separated: id, time, type, release id, catalog number, who, what. --json prints each event as the service sends it, one JSON object per line (docs/api.md, "Events"). \`reldist release history\` shows one release's events with every changed field, old → new.`;

export const listCommand = defineCommand({
  name: 'list',
  summary: "The account's events, oldest first",
  description: `Every event of the account (or after --after, an event id), oldest first.\n\n${OUTPUT}`,
  examples: ['reldist events list', 'reldist events list --release NLR-0042 --json', 'reldist events list --after 1042 --follow'],
  options: [...FILTER_FLAGS, option('--after <id>', 'only events after this one (an event id, as --json shows it)')],
});
export type ListOpts = OptsOf<typeof listCommand>;

export const tailCommand = defineCommand({
  name: 'tail',
  summary: 'The newest events, and with --follow the ones that follow',
  description: `The last -n events (default 10), oldest first; with --follow, then every new one as it happens.\n\n${OUTPUT}`,
  examples: ['reldist events tail', 'reldist events tail --follow', 'reldist events tail -n 50 --type rejected --json'],
  options: [...FILTER_FLAGS, option('-n, --lines <n>', 'how many of the newest events to show first (default 10, at most 500)')],
});
export type TailOpts = OptsOf<typeof tailCommand>;

/** What both verbs' options have: the filters. */
export type EventsOpts = Pick<ListOpts, 'release' | 'type' | 'follow'>;

export const eventsGroup = defineGroup({
  name: 'events',
  summary: "What happened to the account's releases, in order; follow it live",
  examples: ['reldist events tail --follow', 'reldist events list --release NLR-0042', 'reldist release history NLR-0042'],
  commands: [listCommand, tailCommand],
});
