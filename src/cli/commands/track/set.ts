import { defineCommand } from '../../command.js';

interface Opts {
  file?: string;
}

export const setCommand = defineCommand<Opts>({
  name: 'set',
  args: '<release>',
  summary: 'Replace the whole track list of a release from a file',
  description: `The file (JSON or YAML; "-" for standard input) is the body of PUT …/tracks: an object {"tracks": [...]} or a plain array. Each entry keeps an existing track ("id"), attaches an uploaded file ("file_key"), or both; tracks left out are removed. Checked against the contract first, every problem named as file:line: field.path: expected …. --json prints the new list.`,
  examples: [
    'reldist track set 42 --file tracks.json',
    'reldist track list 42 --json | jq "map({id, title, isrc})" | reldist track set 42 --file -',
  ],
  configure(cmd) {
    cmd.requiredOption('-f, --file <file>', 'the track list, JSON or YAML');
  },
  async run(ctx, opts, args) {
    const { api, idArg, trackColumns } = await import('../release/common.js');
    const { ReplaceReleaseTracksBody } = await import('../../../contract/index.js');
    const { loadDataFile } = await import('../../release-file/data-file.js');
    const { printList, success } = await import('../../output/index.js');
    type ReleaseResource = import('../../../contract/index.js').ReleaseResource;
    type TrackResource = import('../../../contract/index.js').TrackResource;
    const releaseId = idArg(args[0], 'release id');
    const body = await loadDataFile(opts.file!, '--file', ReplaceReleaseTracksBody, ctx.io.stdin);
    const client = await api(ctx);
    const release = await client.call('replaceReleaseTracks', { params: { releaseId }, body });
    const tracks = release.tracks ?? (await client.call('listTracks', { params: { releaseId } }));
    success(ctx, `Release ${releaseId} now has ${tracks.length} track${tracks.length === 1 ? '' : 's'}`);
    await printList(ctx, tracks, trackColumns);
  },
});
