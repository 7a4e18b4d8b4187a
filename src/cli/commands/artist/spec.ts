// The `artist` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup, option, type OptsOf } from '../../command.js';

export type ResolveOpts = OptsOf<typeof resolveCommand>;

export const RESOLVE_ENDPOINT = { streaming_a: 'getStreamingAArtist', video_b: 'getVideoChannel', store_c: 'getStoreCArtist' } as const;

export const resolveCommand = defineCommand({
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
  options: [
    option('-p, --platform <platform>', 'the platform of the link: streaming_a, video_b or store_c'),
    option('--via-link', 'with --platform: use the generic artist-via-link endpoint'),
  ],
});

export type SearchOpts = OptsOf<typeof searchCommand>;

export const SEARCH_ENDPOINT = { streaming_a: 'searchStreamingA', video_b: 'searchVideoChannel', store_c: 'searchStoreC' } as const;

export const searchCommand = defineCommand({
  name: 'search',
  args: '<name>',
  summary: "Find an artist's profiles on streaming service A, video service B and store C",
  description: `With --platform, asks that platform's search; without it, searches all three at once (POST /preferences/search/artist-platform). --json prints one array of profiles either way.`,
  examples: ['reldist artist search "Nina Vale"', 'reldist artist search "Nina Vale" --platform store_c --limit 3', 'reldist artist search Nina --json'],
  options: [
    option('-p, --platform <platform>', 'only this platform: streaming_a, video_b or store_c'),
    option('-L, --limit <n>', 'at most this many profiles per platform (1-50)'),
  ],
});

export const artistGroup = defineGroup({
  name: 'artist',
  summary: 'Find and resolve artist profiles on the external platforms',
  examples: ['reldist artist search "Nina Vale"', 'reldist artist resolve https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb'],
  commands: [searchCommand, resolveCommand],
});
