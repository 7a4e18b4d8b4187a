// `track upload`: every file uploaded first; only when all were accepted are they attached, after
// the existing tracks, in one PUT that also lists the existing tracks unchanged. That PUT is based
// on a fresh read and sent with If-Match (shared/track-list-write.ts), so uploads to the same
// release at the same moment all keep their tracks.
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { UploadOpts } from './spec.js';
import type { TrackResource } from '../../../contract/index.js';
import { CliError, ExitCode, worstExit } from '../../errors.js';
import { printList, success, plural } from '../../output/index.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { trackColumns } from '../../shared/track-views.js';
import { isFailure, uploadOne, type Uploaded } from '../../shared/upload.js';
import { titleFrom } from '../../shared/audio-title.js';
import { keepTrack, withinTrackListBounds, writeTrackList } from '../../shared/track-list-write.js';
import { tracksOf } from '../../../contract/wire-values.js';
import { refuseLocally, requireAudioFiles } from '../../shared/audio-check.js';
import { earlierSameAudio } from '../../shared/same-audio.js';
import { confirmOrAbort } from '../../prompts.js';
import { partSettings } from '../../shared/upload-settings.js';

export async function run(ctx: Context, opts: UploadOpts, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const files = args.slice(1);
  partSettings(ctx.env, opts);
  // Before the service is asked anything: every file is there and passes the service's audio rules.
  await requireAudioFiles(files);
  const checks = await refuseLocally(files.map((f) => ({ path: resolve(f), shown: f })));
  // A few small calls around the uploads, which have a transport of their own (node:http, Expect: 100-continue).
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  // Read first: a missing release is reported before any byte is sent.
  const current = await client.call('listTracks', { params: { releaseId } });
  if (!opts.allowDuplicate) await confirmSameAudio(ctx, releaseId, current, files);
  // From the tags the check read, else from the file's name.
  const titles = checks.map((c, i) => titleFrom(c.title, resolve(files[i]!)));

  const results = [];
  for (const [i, f] of files.entries())
    results.push(await uploadOne(ctx, client, releaseId, resolve(f), f, opts, undefined, { file: i + 1, files: files.length }));
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

/** A track's name in a message: its position and title. */
const trackName = (t: Pick<TrackResource, 'position' | 'disc' | 'title'>) => `track ${t.disc > 1 ? `${t.disc}-` : ''}${t.position} "${t.title}"`;

/**
 * Audio already on the release (same sha256), or given twice here, is never added silently: at a
 * terminal the person is asked (no: nothing is sent, exit 0); otherwise it is refused (exit 2)
 * naming what it repeats, and --allow-duplicate adds it anyway.
 */
async function confirmSameAudio(ctx: Context, releaseId: number, current: readonly TrackResource[], files: readonly string[]): Promise<void> {
  const withAudio = current.filter((t) => t.file);
  const same = await earlierSameAudio(
    [...withAudio.map((t) => ({ sha256: t.file!.sha256, size: t.file!.size })), ...files.map((f) => ({ path: resolve(f) }))],
    ctx.signal,
  );
  const repeats = files.flatMap((f, i) => {
    const j = same[withAudio.length + i];
    if (j === undefined) return [];
    const of = j < withAudio.length ? `${trackName(withAudio[j]!)} of release ${releaseId}` : `${files[j - withAudio.length]} (given before it)`;
    return [{ file: f, message: `the same audio (sha256) as ${of}` }];
  });
  if (repeats.length === 0) return;
  const one = repeats.length === 1 ? repeats[0] : undefined;
  if (ctx.canPrompt || ctx.globals.yes) {
    if (!one) for (const r of repeats) ctx.io.stderr.write(`${r.file}: ${r.message}\n`);
    const what = one ? `${one.file} has ${one.message}` : `${repeats.length} of ${plural(files.length, 'file')} repeat audio (above)`;
    await confirmOrAbort(ctx, `${what}; add ${one ? 'it' : 'them'} as new tracks anyway?`, '--allow-duplicate');
    return;
  }
  const what = one ? `${one.file}: ${one.message}` : `${repeats.length} of ${plural(files.length, 'file')} repeat audio`;
  throw new CliError(`${what}; nothing was uploaded`, {
    exitCode: ExitCode.usage,
    code: 'audio_duplicate',
    files: repeats.map((r) => ({ file: r.file, code: 'audio_duplicate', message: r.message })),
    hint: 'a release holds each recording once (submit refuses the same audio on two tracks); pass --allow-duplicate to add it anyway',
  });
}
