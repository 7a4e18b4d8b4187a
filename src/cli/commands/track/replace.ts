import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { replaceCommand } from './spec.js';
import { BadInputFiles, CliError } from '../../errors.js';
import { idArg } from '../../shared/args.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackFields } from '../../shared/track-views.js';
import { isFailure, uploadOne } from '../../shared/upload.js';
import { printRecord, success } from '../../output/index.js';
import { resolve } from 'node:path';
import { partSettings } from '../../shared/upload-settings.js';
import { firstRefusal, requireAudioFiles } from '../../shared/audio-check.js';

export async function run(ctx: Context, opts: OptsOf<typeof replaceCommand>, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const trackId = idArg(args[1], 'track id');
  const file = args[2]!;
  partSettings(ctx.env, opts);
  await requireAudioFiles([file]);
  const refusal = await firstRefusal(resolve(file));
  if (refusal) {
    throw new BadInputFiles(
      `${file}: ${refusal.message}; track ${trackId} keeps its old file`,
      [{ file, code: refusal.code, message: refusal.message }],
      `'reldist track check ${file}' shows the file's format and every problem`,
    );
  }
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  // The track must exist before its file is uploaded.
  await client.call('getTrack', { params: { releaseId, trackId } });
  const up = await uploadOne(ctx, client, releaseId, resolve(file), file, opts);
  if (isFailure(up)) {
    throw new CliError(`${file}: ${up.reason}; track ${trackId} keeps its old file`, { exitCode: up.exitCode as never, code: up.code });
  }
  const release = await client.call('replaceTrackFile', { params: { releaseId, trackId }, body: { file_key: up.key } });
  await up.attached();
  const track = release.tracks?.find((t) => t.id === trackId) ?? (await client.call('getTrack', { params: { releaseId, trackId } }));
  success(ctx, `Replaced the file of track ${trackId} with ${file}`);
  await printRecord(ctx, track, trackFields);
}
