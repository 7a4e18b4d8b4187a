import { defineCommand } from '../../command.js';

interface Opts {
  platform?: string;
  viaLink?: boolean;
}

const RESOLVE_ENDPOINT = { streaming_a: 'getStreamingAArtist', video_b: 'getVideoChannel', store_c: 'getStoreCArtist' } as const;

export const resolveCommand = defineCommand<Opts>({
  name: 'resolve',
  args: '<link>',
  summary: 'Show the artist profile a pasted link, URI or id points to',
  description: `Accepts what a person pastes: a web link (with or without query string, trailing slash or locale segment), a platform URI, or with --platform a bare id. Links to a track, album or playlist are refused with the reason.

Without --platform the service detects the platform from the link (POST /preferences/artist/get-artist-via-url). With --platform it asks that platform's own endpoint, or with --via-link the generic GET /preferences/artist-via-link.`,
  examples: [
    'reldist artist resolve https://open.streaming-a.example/intl-de/artist/4Z8W4fKeB5YxbusRsdQVPb?si=abc',
    'reldist artist resolve 4Z8W4fKeB5YxbusRsdQVPb --platform streaming_a',
    'reldist artist resolve https://store-c.example/artist/nina-vale/123 --platform store_c --via-link --json',
  ],
  configure(cmd) {
    cmd.option('-p, --platform <platform>', 'the platform of the link: streaming_a, video_b or store_c');
    cmd.option('--via-link', 'with --platform: use the generic artist-via-link endpoint');
  },
  async run(ctx, opts, args) {
    const { api, platformOption } = await import('../release/common.js');
    const { UsageError } = await import('../../errors.js');
    const { printRecord } = await import('../../output/index.js');
    const { profileFields } = await import('./view.js');
    const url = (args[0] ?? '').trim();
    if (!url) throw new UsageError('artist resolve: expected a link, URI or id', 'e.g. reldist artist resolve https://open.streaming-a.example/artist/…');
    const platform = platformOption(opts.platform);
    if (opts.viaLink && !platform) throw new UsageError('--via-link needs --platform', 'pass --platform streaming_a, video_b or store_c');
    const client = await api(ctx);
    const profile = !platform
      ? await client.call('getArtistViaUrl', { body: { url } })
      : opts.viaLink
        ? await client.call('getArtistViaLink', { query: { url, platform } })
        : await client.call(RESOLVE_ENDPOINT[platform], { query: { url } });
    await printRecord(ctx, profile, profileFields);
  },
});
