import { defineCommand } from '../../command.js';

export const getCommand = defineCommand({
  name: 'get',
  args: '<release> <track>',
  summary: 'Show one track of a release, with its audio file',
  examples: ['reldist track get 42 7', 'reldist track get 42 7 --json | jq .file'],
  aliases: ['view'],
  async run(ctx, _opts, args) {
    const { api, idArg, trackFields } = await import('../release/common.js');
    const { printRecord } = await import('../../output/index.js');
    const releaseId = idArg(args[0], 'release id');
    const trackId = idArg(args[1], 'track id');
    const track = await (await api(ctx)).call('getTrack', { params: { releaseId, trackId } });
    await printRecord(ctx, track, trackFields);
  },
});
