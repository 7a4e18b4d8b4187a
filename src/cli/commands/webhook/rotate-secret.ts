// `webhook rotate-secret <id>`: a new secret, printed once; the old one signs too for --overlap.
import type { Context } from '../../context.js';
import { webhookRotationOverlap } from '../../../contract/wire-values.js';
import { idArg } from '../../shared/args.js';
import { parseDuration } from '../../shared/duration.js';
import { note, printRecord } from '../../output/index.js';
import type { RotateOpts } from './spec.js';
import { endpointFields } from './views.js';

export async function run(ctx: Context, opts: RotateOpts, args: string[]): Promise<void> {
  const id = idArg(args[0], 'webhook id');
  const overlapMs =
    opts.overlap === undefined ? undefined : parseDuration(opts.overlap, '--overlap', { minMs: 0, maxMs: webhookRotationOverlap.maxSeconds * 1000 });
  const client = await ctx.services.client();
  const hook = await client.call('rotateWebhookSecret', {
    params: { webhookId: id },
    body: overlapMs === undefined ? {} : { overlap_seconds: Math.round(overlapMs / 1000) },
  });
  await printRecord(ctx, hook, [...endpointFields, { header: 'Secret', value: 'secret' }]);
  note(
    ctx,
    hook.previous_secret_expires_at
      ? `Keep the new secret now: it is not shown again. Until ${hook.previous_secret_expires_at} deliveries carry a signature with each secret; then only the new one signs.`
      : 'Keep the new secret now: it is not shown again. The old secret no longer signs.',
  );
}
