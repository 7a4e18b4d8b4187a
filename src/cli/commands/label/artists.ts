import { defineCommand } from '../../command.js';

const ACTIONS = ['list', 'get', 'remove'] as const;

export const artistsCommand = defineCommand({
  name: 'artists',
  args: '<action> [id]',
  summary: 'The artists a label manages: list, get <id>, remove <id>',
  description: `  list          the artists you can release as (GET /preferences/artists)
  get <id>      one artist the label manages, with its platform profiles
  remove <id>   stop managing an artist (asks first on a terminal; --yes otherwise)

Add artists and set their profiles with \`reldist prefs label\`.`,
  examples: ['reldist label artists list', 'reldist label artists get 3 --json', 'reldist label artists remove 3 --yes'],
  async run(ctx, _opts, args) {
    const { UsageError } = await import('../../errors.js');
    const action = args[0] as (typeof ACTIONS)[number];
    if (!ACTIONS.includes(action)) {
      throw new UsageError(`label artists: unknown action "${args[0]}": expected list, get <id> or remove <id>`, 'run `reldist label artists --help`');
    }
    if (action === 'list') {
      if (args[1] !== undefined) throw new UsageError('label artists list: takes no id', 'use `reldist label artists get <id>` for one artist');
      return (await import('./artists-list.js')).listArtists(ctx);
    }
    if (args[1] === undefined) throw new UsageError(`label artists ${action}: expected an artist id`, `e.g. reldist label artists ${action} 3`);
    if (action === 'get') return (await import('./artists-get.js')).getArtist(ctx, args[1]);
    return (await import('./artists-remove.js')).removeArtist(ctx, args[1]);
  },
});
