import { defineCommand } from '../../command.js';

export const deleteCommand = defineCommand({
  name: 'delete',
  args: '<id>',
  summary: 'Delete a draft or rejected release and its tracks',
  description: `Asks for confirmation on a terminal. Without a terminal (scripts, CI) --yes is required. Releases that were delivered cannot be deleted; take them down instead.`,
  examples: ['reldist release delete 42', 'reldist release delete 42 --yes --json'],
  aliases: ['rm'],
  async run(ctx, _opts, args) {
    const { api, idArg } = await import('./common.js');
    const { UsageError } = await import('../../errors.js');
    const { confirmOrAbort } = await import('../../prompts.js');
    const { printJson, success } = await import('../../output/index.js');
    const id = idArg(args[0], 'release id');
    const client = await api(ctx);
    if (!ctx.globals.yes) {
      if (!ctx.canPrompt) throw new UsageError(`release ${id}: not deleted: confirmation needed`, 'pass --yes to delete without a prompt');
      const r = await client.call('getRelease', { params: { releaseId: id } });
      await confirmOrAbort(ctx, `Delete release ${id} "${r.title}" (${r.status}, ${r.track_count} track${r.track_count === 1 ? '' : 's'})? This cannot be undone.`);
    }
    const res = await client.call('deleteRelease', { params: { releaseId: id } });
    if (ctx.globals.json) printJson(ctx, res);
    else success(ctx, res.message);
  },
});
