// `release withdraw`: takes a release in review back to a draft on the service (POST …/withdraw),
// so that a mistake seen after the submit can be fixed and the release submitted again. A release
// that is already a draft has converged: said, exit 0 (a re-run after a lost answer lands here).
import type { Context } from '../../context.js';
import type { OptsOf } from '../../command.js';
import type { withdrawCommand } from './spec.js';
import { conflictStatus } from '../../shared/release-status.js';
import { parseReleaseRef, releaseLabel, resolveReleaseRef } from '../../shared/release-ref.js';
import { printJson, success, writeStderr } from '../../output/index.js';
import { showRelease } from './show.js';

export async function run(ctx: Context, _opts: OptsOf<typeof withdrawCommand>, args: string[]): Promise<void> {
  const parsed = parseReleaseRef(args[0]);
  const client = await ctx.services.client();
  const ref = await resolveReleaseRef(client, args[0], ctx.signal, parsed);
  try {
    const release = await client.call('withdrawRelease', { params: { releaseId: ref.id }, body: {}, signal: ctx.signal });
    success(
      ctx,
      `Withdrew ${releaseLabel(ref.id, release.catalog_number)} from review: it is a draft again; fix it, then \`reldist release submit ${ref.id}\``,
    );
    await showRelease(ctx, release);
  } catch (err) {
    if ((await conflictStatus(client, ref.id, err, ctx.signal)) !== 'draft') throw err;
    const release = await client.call('getRelease', { params: { releaseId: ref.id }, signal: ctx.signal });
    if (ctx.globals.json) printJson(ctx, release);
    else if (!ctx.globals.quiet) writeStderr(ctx, `${releaseLabel(ref.id, release.catalog_number)} is already a draft: nothing to withdraw\n`);
  }
}
