// Uploads audio files for a release: for each, an upload address from the service, then the
// bytes streamed there (never read whole), with size and sha256, and a progress bar on stderr
// when it is a terminal. Shared by `track upload`, `track replace` and `release create --file`.
import type { ApiClient, UploadResult } from '../../client/index.js';
import type { EntityId } from '../../contract/index.js';
import type { Context } from '../context.js';
import { describeError } from '../describe-error.js';
import { ExitCode } from '../errors.js';
import { formatBytes, note, progress } from '../output/index.js';
import { uploadArtworkFile, uploadTrackFile } from '../../client/index.js';
import type { ReleaseResource } from '../../contract/index.js';
import { fileErrorReason } from './file-errors.js';
import { partsSettings, type UploadFlags } from './upload-settings.js';

export interface Uploaded extends UploadResult {
  path: string;
  /** Forgets the file's upload checkpoint: call once the upload is attached (until then a run again continues it, sending nothing). */
  attached(): Promise<void>;
}

export interface UploadFailure {
  path: string;
  /** One line: the service's reason (e.g. "the audio has 1 channel; it must be stereo"). */
  reason: string;
  exitCode: number;
  code: string;
}

/** Where a file stands among several going up in one command: its progress says "file 2 of 5". */
export interface FilePosition {
  file: number;
  files: number;
}

/** Uploads one file; a refusal comes back as a failure with its reason, never thrown. */
export async function uploadOne(
  ctx: Context,
  client: ApiClient,
  releaseId: EntityId,
  path: string,
  shown = path,
  flags: UploadFlags = {},
  /** Whose checkpoint: the release's, unless `release create` (whose run again makes a new draft) says `create`. */
  scope = `release:${releaseId}`,
  position?: FilePosition,
): Promise<Uploaded | UploadFailure> {
  // A file above one part goes up in parts, with a checkpoint (shared/upload-settings.ts); a bad setting is a usage error, before any byte.
  const parts = partsSettings(ctx.env, client.baseUrl, path, scope, flags);
  const bar = progress(ctx, `Uploading ${shown}`, { unit: 'bytes', ...position });
  try {
    const res = await uploadTrackFile(client, releaseId, path, {
      signal: ctx.signal,
      parts,
      onProgress: (p) => {
        // Said once, on a terminal: this run continues an upload a killed or failed one began.
        if (p.phase === 'resume') note(ctx, `Continuing the upload of ${shown}: the service holds ${formatBytes(p.bytes)} of ${formatBytes(p.total)}`);
        else if (p.phase === 'upload') bar.update(p.bytes, p.total);
      },
    });
    bar.done(ctx.io.stderrIsTTY && !ctx.globals.quiet ? `Uploaded ${shown} (${formatBytes(res.size)})` : undefined);
    return { ...res, path, attached: async () => parts.checkpoint?.remove().catch(() => undefined) };
  } catch (err) {
    bar.done();
    if (ctx.signal.aborted) throw err;
    const fs = fileErrorReason(err);
    if (fs) return { path, reason: fs, exitCode: ExitCode.usage, code: 'bad_file' };
    const d = describeError(err, { debug: false });
    // The service looked at the audio and said no: like a blocked submit, the answer is "invalid".
    const refused = (err as { status?: number }).status === 422;
    return { path, reason: d.message, exitCode: refused ? ExitCode.validation : d.exitCode, code: d.code };
  }
}

export function isFailure(r: Uploaded | UploadFailure): r is UploadFailure {
  return 'reason' in r;
}

/**
 * Uploads a cover image (checked locally first by the caller: shared/artwork-check.ts) and sets it
 * as the release's cover. Its sha256 is declared, so the service refuses any other bytes. A
 * refusal comes back as a failure with its reason, never thrown. Safe to re-run: a cover uploaded
 * but not set (a run killed in between) is an unattached upload the service removes after a day.
 */
export async function uploadCover(
  ctx: Context,
  client: ApiClient,
  releaseId: EntityId,
  path: string,
  shown = path,
  sha256?: string,
): Promise<(Uploaded & { release: ReleaseResource }) | UploadFailure> {
  const bar = progress(ctx, `Uploading ${shown}`, { unit: 'bytes' });
  let uploaded: UploadResult;
  try {
    uploaded = await uploadArtworkFile(client, releaseId, path, {
      signal: ctx.signal,
      sha256,
      onProgress: (p) => {
        if (p.phase === 'upload') bar.update(p.bytes, p.total);
      },
    });
    bar.done(ctx.io.stderrIsTTY && !ctx.globals.quiet ? `Uploaded ${shown} (${formatBytes(uploaded.size)})` : undefined);
  } catch (err) {
    bar.done();
    return failureOf(ctx, err, path);
  }
  try {
    const release = await client.call('updateReleaseMetadata', { params: { releaseId }, body: { artwork: { file_key: uploaded.key } }, signal: ctx.signal });
    return { ...uploaded, path, release, attached: async () => undefined };
  } catch (err) {
    return failureOf(ctx, err, path);
  }
}

function failureOf(ctx: Context, err: unknown, path: string): UploadFailure {
  if (ctx.signal.aborted) throw err;
  const fs = fileErrorReason(err);
  if (fs) return { path, reason: fs, exitCode: ExitCode.usage, code: 'bad_file' };
  const d = describeError(err, { debug: false });
  const refused = (err as { status?: number }).status === 422;
  return { path, reason: d.message, exitCode: refused ? ExitCode.validation : d.exitCode, code: d.code };
}
