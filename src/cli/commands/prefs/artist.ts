import type { ArtistOpts } from './spec.js';
import type { ArtistPreferencesData as Data } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { SubmitArtistPreferenceRequest } from '../../../contract/index.js';
import { PLATFORMS } from '../../shared/args.js';
import { choiceText } from '../../shared/label-artist-views.js';
import { parseChoice } from './choice-flag.js';
import { loadDataFile } from '../../shared/data-file.js';
import { printRecord, success } from '../../output/index.js';

export async function run(ctx: Context, opts: ArtistOpts): Promise<void> {
  const client = await ctx.services.client();
  if (opts.name !== undefined || opts.platform !== undefined || opts.file !== undefined) {
    let body: Record<string, unknown> = {};
    if (opts.file !== undefined) {
      body = await loadDataFile(opts.file, '--file', SubmitArtistPreferenceRequest, ctx.io.stdin);
    }
    if (opts.name !== undefined) body.artist_name = opts.name;
    if (opts.platform !== undefined) body.platforms = opts.platform.map(parseChoice);
    const res = await client.call('submitArtistPreference', { body });
    success(ctx, res.message);
  }
  const data = await client.call('getArtistPreferences');
  await printRecord(ctx, data, [
    { header: 'Artist name', value: 'artist_name' },
    ...PLATFORMS.map((p) => ({
      header: p,
      value: (d: Data) => choiceText(d.platforms.find((c) => c.platform === p)),
    })),
    { header: 'Updated', value: 'updated_at', kind: 'date' as const },
  ]);
}
