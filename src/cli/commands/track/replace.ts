import { defineCommand } from '../../command.js';

export const replaceCommand = defineCommand({
  name: 'replace',
  args: '<release> <track> <file>',
  summary: 'Replace the audio file of one track',
  description: `Uploads the file (streamed, with size and sha256, progress on a terminal) and swaps it in; the track keeps its title, ISRC and everything else. Audio the service refuses is reported with its reason and the track keeps its old file. --json prints the track afterwards.`,
  examples: ['reldist track replace 42 7 northern-sky-remaster.wav'],
  async run(ctx, _opts, args) {
    const { resolve } = await import('node:path');
    const { api, idArg, trackFields } = await import('../release/common.js');
    const { CliError } = await import('../../errors.js');
    const { printRecord, success } = await import('../../output/index.js');
    const { isFailure, uploadOne } = await import('./upload-files.js');
    const releaseId = idArg(args[0], 'release id');
    const trackId = idArg(args[1], 'track id');
    const file = args[2]!;
    const client = await api(ctx, 'long');
    // The track must exist before its file is uploaded.
    await client.call('getTrack', { params: { releaseId, trackId } });
    const up = await uploadOne(ctx, client, releaseId, resolve(file), file);
    if (isFailure(up)) {
      throw new CliError(`${file}: ${up.reason}; track ${trackId} keeps its old file`, { exitCode: up.exitCode as never, code: up.code });
    }
    const release = await client.call('replaceTrackFile', { params: { releaseId, trackId }, body: { file_key: up.key } });
    const track = release.tracks?.find((t) => String(t.id) === trackId) ?? (await client.call('getTrack', { params: { releaseId, trackId } }));
    success(ctx, `Replaced the file of track ${trackId} with ${file}`);
    await printRecord(ctx, track, trackFields);
  },
});
