// `upload discard <key…> | --all-incomplete`: deletes uploads no track or cover names. Shows what
// it will delete and asks first on a terminal; discards exactly what was shown (a run starting
// meanwhile keeps its upload). Safe to run again: a key already gone is said, not an error.
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { formatBytes, note, plural, printJson, success } from '../../output/index.js';
import { confirmOrAbort } from '../../prompts.js';
import { uploadKeyPattern } from '../../../contract/routes.js';
import type { DiscardOpts } from './spec.js';

export async function run(ctx: Context, opts: DiscardOpts, args: string[]): Promise<void> {
  if (opts.allIncomplete && args.length > 0) throw new UsageError('give upload keys or --all-incomplete, not both');
  if (!opts.allIncomplete && args.length === 0)
    throw new UsageError('name the uploads to discard (upl_…), or give --all-incomplete', '`reldist upload list` shows them');
  const bad = args.find((k) => !uploadKeyPattern.test(k));
  if (bad !== undefined) throw new UsageError(`${bad}: not an upload key (upl_ and 32 hex digits)`, '`reldist upload list` shows the keys');
  if (!ctx.globals.yes && !ctx.canPrompt) {
    throw new UsageError('nothing was discarded: confirmation needed', 'pass --yes to discard without a prompt');
  }
  const client = await ctx.services.client();
  let keys = [...new Set(args)];
  if (opts.allIncomplete || !ctx.globals.yes) {
    const listed = await client.call('listUploads', { query: opts.allIncomplete ? { state: 'receiving' } : {}, signal: ctx.signal });
    const shown = opts.allIncomplete ? listed : listed.filter((u) => keys.includes(u.key));
    if (opts.allIncomplete) keys = shown.map((u) => u.key);
    if (keys.length === 0) {
      if (ctx.globals.json) printJson(ctx, { discarded: [], not_found: [], attached: [] });
      else note(ctx, 'no uploads in parts arriving: nothing to discard');
      return;
    }
    if (!ctx.globals.yes) {
      const held = shown.reduce((sum, u) => sum + u.received_bytes, 0);
      const what = shown.length === keys.length ? plural(keys.length, 'upload') : `${plural(keys.length, 'upload')} (${shown.length} found)`;
      await confirmOrAbort(ctx, `Discard ${what}, holding ${formatBytes(held)}? They are deleted from the service; a track can no longer use them.`);
    }
  }
  const res = await client.call('discardUploads', { body: { keys }, signal: ctx.signal });
  if (ctx.globals.json) printJson(ctx, res);
  else {
    for (const k of res.not_found) note(ctx, `${k}: no such upload (discarded or expired already)`);
    const freed = res.discarded.reduce((sum, u) => sum + u.received_bytes, 0);
    if (res.discarded.length > 0 || res.attached.length === 0)
      success(ctx, `Discarded ${plural(res.discarded.length, 'upload')} (${formatBytes(freed)} freed)`);
  }
  if (res.attached.length > 0) {
    throw new CliError(`${res.attached.join(', ')}: not discarded: a track or a release's cover names ${res.attached.length === 1 ? 'it' : 'them'}`, {
      exitCode: ExitCode.conflict,
      code: 'attached',
      hint: 'replace or remove the track (`reldist track replace`, `reldist track set`) first',
    });
  }
}
