import { defineCommand } from '../../command.js';

export const uploadCommand = defineCommand({
  name: 'upload',
  args: '<release> <files...>',
  summary: 'Upload audio files and add them to a release as new tracks',
  description: `For each file: asks the service for an upload address, streams the file there with its size and sha256 (a progress bar on stderr on a terminal), and the service checks the audio: WAV, FLAC or AIFF, stereo, 16 or 24 bit, 44.1 kHz or more, at least 30 s. Then the files are added after the existing tracks (which are kept), titled from their tags, else from their file names. If the service refuses any file, its reason is shown and no track is added. --json prints the release's tracks afterwards.`,
  examples: ['reldist track upload 42 01-northern-sky.wav 02-evening.flac', 'reldist track upload 42 masters/*.flac --json'],
  async run(ctx, _opts, args) {
    const { runUpload } = await import('./upload-run.js');
    await runUpload(ctx, args);
  },
});
