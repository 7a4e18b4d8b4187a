// A release as a record, and on a terminal its tracks under it.
import type { ReleaseResource } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { printJson, printRecord, printTable } from '../../output/index.js';
import { releaseFields } from '../../shared/release-views.js';
import { trackColumns } from '../../shared/track-views.js';

export async function showRelease(ctx: Context, release: ReleaseResource, json: unknown = release): Promise<void> {
  if (ctx.globals.json) return printJson(ctx, json);
  await printRecord(ctx, release, releaseFields);
  const tracks = release.tracks ?? [];
  if (ctx.io.stdoutIsTTY && tracks.length > 0) {
    await printTable(ctx, tracks, trackColumns, '\n');
  }
}
