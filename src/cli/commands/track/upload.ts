// `track upload`: every file uploaded first; only when all were accepted are they attached, after
// the existing tracks, in one PUT that also lists the existing tracks unchanged. That PUT is based
// on a fresh read and sent with If-Match (shared/track-list-write.ts), so uploads to the same
// release at the same moment all keep their tracks.
import { resolve } from 'node:path';
import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { uploadCommand } from './spec.js';
import { CliError, ExitCode, worstExit } from '../../errors.js';
import { printList, success, plural } from '../../output/index.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackColumns } from '../../shared/track-views.js';
import { isFailure, uploadOne, type Uploaded } from '../../shared/upload.js';
import { titleFrom } from '../../shared/audio-title.js';
import { keepTrack, withinTrackListBounds, writeTrackList } from '../../shared/track-list-write.js';
import { tracksOf } from '../../../contract/wire-values.js';
import { refuseLocally, requireAudioFiles } from '../../shared/audio-check.js';

export async function run(ctx: Context, opts: OptsOf<typeof uploadCommand>, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const files = args.slice(1);
  // Before the service is asked anything: every file is there and passes the service's audio rules.
  await requireAudioFiles(files);
  const checks = await refuseLocally(files.map((f) => ({ path: resolve(f), shown: f })));
  // A few small calls around the uploads, which have a transport of their own (node:http, Expect: 100-continue).
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  // Read first: a missing release is reported before any byte is sent.
  await client.call('listTracks', { params: { releaseId } });
  // From the tags the check read, else from the file's name.
  const titles = checks.map((c, i) => titleFrom(c.title, resolve(files[i]!)));

  const results = [];
  for (const f of files) results.push(await uploadOne(ctx, client, releaseId, resolve(f), f, opts));
  const failures = results.filter(isFailure);
  if (failures.length > 0) {
    const bad = results.flatMap((r, i) => (isFailure(r) ? [{ file: files[i]!, code: r.code, message: r.reason }] : []));
    const accepted = results.length - failures.length;
    throw new CliError(
      `${failures.length} of ${results.length} file${results.length === 1 ? ' was' : 's were'} ${failures.every((f) => f.exitCode === ExitCode.validation) ? 'refused' : 'not uploaded'}; no track was added${accepted ? ` (the ${accepted} accepted upload${accepted === 1 ? ' is' : 's are'} not attached)` : ''}`,
      {
        exitCode: worstExit(failures.map((f) => f.exitCode)) as ExitCode,
        code: failures[0]!.code,
        files: bad,
        hint: 'the reasons are listed above; fix or leave out those files and run again',
      },
    );
  }
  const uploaded = results as Uploaded[];
  const release = await writeTrackList(
    ctx,
    client,
    releaseId,
    (current) => {
      const after = current.filter((t) => t.disc === 1).reduce((m, t) => Math.max(m, t.position), 0);
      const added = uploaded.map((u, i) => ({ file_key: u.key, title: titles[i]!, position: after + i + 1, disc: 1 }));
      return { tracks: [...current.map(keepTrack), ...added] };
    },
    // Within the contract's plain bounds the client need not parse the body it built.
    { checked: (body) => withinTrackListBounds(tracksOf(body)) },
  );
  await Promise.all(uploaded.map((u) => u.attached()));
  success(ctx, `Added ${plural(uploaded.length, 'track')} to release ${releaseId}`);
  const tracks = release.tracks ?? (await client.call('listTracks', { params: { releaseId } }));
  await printList(ctx, tracks, trackColumns);
}
