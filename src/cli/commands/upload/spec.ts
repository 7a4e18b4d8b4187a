// The `upload` group as --help and shell completion see it: the account's uploads that no track
// or cover names yet (complete ones, and uploads in parts a killed or failed run left arriving),
// which hold its quota until they are attached, expire, or are discarded. Declarations only.
import { defineCommand, defineGroup, option, type OptsOf } from '../../command.js';

export const listCommand = defineCommand({
  name: 'list',
  summary: 'Uploads nothing names yet: what they hold, when they expire',
  description:
    'Complete uploads (ready to attach) and uploads in parts still arriving (a run that was killed or failed: run it again to continue, or discard them). ' +
    "Both hold the account's upload quota until attached, discarded, or deleted at their expiry (24 hours after their last byte, on the reference service). " +
    'A table on a terminal, tab-separated rows when piped (key, release, file, state, received, size, expires), a JSON array with --json.',
  examples: ['reldist upload list', 'reldist upload list --incomplete --json'],
  aliases: ['ls'],
  options: [option('--incomplete', 'only uploads in parts still arriving')],
});
export type ListOpts = OptsOf<typeof listCommand>;

export const discardCommand = defineCommand({
  name: 'discard',
  args: '[keys...]',
  safeToRerun: true,
  summary: 'Delete uploads no track or cover names, freeing the quota they hold',
  description:
    'By key (upl_…, as `reldist upload list` shows them), or --all-incomplete: every upload in parts still arriving. ' +
    'A key already gone is said and is not an error (safe to run again); one a track or a cover names is kept, and the exit code is 9. ' +
    'Asks for confirmation on a terminal; without one (scripts, CI) --yes is required.',
  examples: ['reldist upload discard upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6', 'reldist upload discard --all-incomplete --yes'],
  options: [option('--all-incomplete', 'every upload in parts still arriving')],
});
export type DiscardOpts = OptsOf<typeof discardCommand>;

export const uploadGroup = defineGroup({
  name: 'upload',
  summary: 'Uploads no track names yet: list them, discard them',
  examples: ['reldist upload list --incomplete', 'reldist upload discard --all-incomplete --yes'],
  commands: [listCommand, discardCommand],
});
