// Artist profile search and link resolution on the three external platforms (spec 4.5).
import type { SearchArtistPlatformResponseData } from '../../contract/resources.js';
import type { Committed, Handler, HandlerMap } from '../handler.js';
import { SEARCH_LIMIT_DEFAULT } from '../artists/directory.js';
import { ARTIST_PLATFORMS, type ArtistPlatform } from '../artists/platforms.js';
import { resolveOrThrow } from '../artists/resolve-http.js';

const search =
  (platform: ArtistPlatform): Handler<'searchStreamingA' | 'searchVideoChannel' | 'searchStoreC'> =>
  ({ query }, { artists }) =>
    artists.search(platform, query.q, query.limit ?? SEARCH_LIMIT_DEFAULT);

const resolveOn =
  (platform: ArtistPlatform): Handler<'getStreamingAArtist' | 'getVideoChannel' | 'getStoreCArtist'> =>
  ({ query }, { artists }) =>
    resolveOrThrow(artists, query.url, platform, { in: 'query', field: 'url' });

export const handlers: HandlerMap = {
  searchStreamingA: search('streaming_a'),
  searchVideoChannel: search('video_b'),
  searchStoreC: search('store_c'),

  getStreamingAArtist: resolveOn('streaming_a'),
  getVideoChannel: resolveOn('video_b'),
  getStoreCArtist: resolveOn('store_c'),

  getArtistViaLink: ({ query }, { artists }) => resolveOrThrow(artists, query.url, query.platform, { in: 'query', field: 'url' }),

  // POSTs that change nothing: their answer is still kept under an Idempotency-Key, through commit().
  async searchArtistPlatform({ body: req, commit }, { artists: directory }): Promise<Committed<SearchArtistPlatformResponseData>> {
    // Each platform once, in the order asked (a repeated platform would only repeat its results).
    const platforms = [...new Set(req.platforms ?? ARTIST_PLATFORMS)];
    const limit = req.limit ?? SEARCH_LIMIT_DEFAULT;
    const results = await Promise.all(platforms.map(async (platform) => ({ platform, artists: await directory.search(platform, req.name, limit) })));
    return commit(() => ({ query: req.name, results }));
  },

  async getArtistViaUrl({ body: req, commit }, { artists }) {
    const profile = await resolveOrThrow(artists, req.url, req.platform, { in: 'body', field: 'url' });
    return commit(() => profile);
  },
};
