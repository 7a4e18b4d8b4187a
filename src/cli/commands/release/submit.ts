import { defineCommand } from '../../command.js';

interface Opts {
  dryRun?: boolean;
  notes?: string;
}

export const submitCommand = defineCommand<Opts>({
  name: 'submit',
  args: '<ids...>',
  summary: 'Submit releases for review, or check them with --dry-run',
  description: `The service runs every check at once. Every blocking problem and warning is shown, one per line, grouped by field path. Warnings do not block.

Exit status: 0 when every release went through (or, with --dry-run, would), 3 when any is blocked, another code when a release could not be reached; with several ids, the worst. --json prints one object per release ({release_id, outcome, status, message, problems, error}): the object for one id, an array for several. Piped, each problem is a row: release id, outcome, path, severity, code, message, hint (a release without problems: one row).`,
  examples: [
    'reldist release submit 42',
    'reldist release submit 42 --dry-run',
    'reldist release submit 42 43 44 --json > results.json',
  ],
  configure(cmd) {
    cmd.option('--dry-run', 'run every check and report, without submitting');
    cmd.option('--notes <text>', 'notes for the reviewer');
  },
  async run(ctx, opts, args) {
    const { api, idArg } = await import('./common.js');
    const { submitOne, reportOutcomes } = await import('./submit-run.js');
    const ids = args.map((a) => idArg(a, 'release id'));
    const client = await api(ctx);
    const outcomes = [];
    // One after another: the answers come back in the order asked, and the service is not flooded.
    for (const id of ids) outcomes.push(await submitOne(client, id, { dryRun: Boolean(opts.dryRun), notes: opts.notes }));
    await reportOutcomes(ctx, outcomes, { dryRun: Boolean(opts.dryRun), single: ids.length === 1 });
  },
});
