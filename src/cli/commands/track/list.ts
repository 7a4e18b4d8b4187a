import { defineCommand } from '../../command.js';

export const listCommand = defineCommand({
  name: 'list',
  args: '<release>',
  summary: 'List the tracks of a release',
  description: `Piped, one row per track: position, id, title, ISRC, duration, file name, file state. --json prints the service's array of tracks.`,
  examples: ['reldist track list 42', 'reldist track list 42 --json | jq -r ".[].isrc"'],
  aliases: ['ls'],
  async run(ctx, _opts, args) {
    const { api, idArg, trackColumns } = await import('../release/common.js');
    const { printList } = await import('../../output/index.js');
    const releaseId = idArg(args[0], 'release id');
    const tracks = await (await api(ctx)).call('listTracks', { params: { releaseId } });
    await printList(ctx, tracks, trackColumns, { empty: `release ${releaseId} has no tracks yet; add some with \`reldist track upload ${releaseId} <file…>\`` });
  },
});
