import type { Context } from '../../context.js';
import type { ResolveOpts } from './spec.js';
import { RESOLVE_ENDPOINT } from './spec.js';
import { UsageError } from '../../errors.js';
import { platformOption } from '../../shared/args.js';
import { printRecord } from '../../output/index.js';
import { profileFields } from './view.js';

export async function run(ctx: Context, opts: ResolveOpts, args: string[]): Promise<void> {
  const url = (args[0] ?? '').trim();
  if (!url) throw new UsageError('artist resolve: expected a link, URI or id', 'e.g. reldist artist resolve https://open.streaming-a.example/artist/…');
  const platform = platformOption(opts.platform);
  if (opts.viaLink && !platform) throw new UsageError('--via-link needs --platform', 'pass --platform streaming_a, video_b or store_c');
  const client = await ctx.services.client();
  const profile = !platform
    ? await client.call('getArtistViaUrl', { body: { url } })
    : opts.viaLink
      ? await client.call('getArtistViaLink', { query: { url, platform } })
      : await client.call(RESOLVE_ENDPOINT[platform], { query: { url } });
  await printRecord(ctx, profile, profileFields);
}
