// `webhook create <url>`: registers the URL and prints the endpoint with its secret, shown once.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { note, printRecord } from '../../output/index.js';
import type { CreateOpts } from './spec.js';
import { endpointFields, eventsOption } from './views.js';

export async function run(ctx: Context, opts: CreateOpts, args: string[]): Promise<void> {
  const url = args[0]?.trim();
  if (!url) throw new UsageError('url: give the address to deliver to, e.g. https://hooks.example.com/reldist');
  const events = eventsOption(opts.events);
  const client = await ctx.services.client();
  const hook = await client.call('createWebhook', {
    body: {
      url,
      ...(events ? { events } : {}),
      ...(opts.description !== undefined && opts.description.trim() !== '' ? { description: opts.description } : {}),
      ...(opts.disabled ? { enabled: false } : {}),
    },
  });
  await printRecord(ctx, hook, [...endpointFields, { header: 'Secret', value: 'secret' }]);
  note(
    ctx,
    `Keep the secret now: it is not shown again (\`reldist webhook rotate-secret ${hook.id}\` gives a new one). Try it: \`reldist webhook test ${hook.id}\`.`,
  );
}
