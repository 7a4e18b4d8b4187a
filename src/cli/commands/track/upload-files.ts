// Uploads audio files for a release: for each, an upload address from the service, then the
// bytes streamed there (never read whole), with size and sha256, and a progress bar on stderr
// when it is a terminal. Shared by `track upload`, `track replace` and `release create --file`.
import { basename, extname } from 'node:path';
import type { ApiClient, UploadResult } from '../../../client/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { formatBytes, progress } from '../../output/index.js';

export interface Uploaded extends UploadResult {
  path: string;
}

export interface UploadFailure {
  path: string;
  /** One line: the service's reason (e.g. "the audio has 1 channel; it must be stereo"). */
  reason: string;
  exitCode: number;
  code: string;
}

/** Uploads one file; a refusal comes back as a failure with its reason, never thrown. */
export async function uploadOne(ctx: Context, client: ApiClient, releaseId: string, path: string, shown = path): Promise<Uploaded | UploadFailure> {
  const { uploadTrackFile } = await import('../../../client/index.js');
  const bar = progress(ctx, `Uploading ${shown}`, { unit: 'bytes' });
  try {
    const res = await uploadTrackFile(client, releaseId, path, {
      signal: ctx.signal,
      onProgress: (p) => {
        if (p.phase === 'upload') bar.update(p.bytes, p.total);
      },
    });
    bar.done(ctx.io.stderrIsTTY && !ctx.globals.quiet ? `Uploaded ${shown} (${formatBytes(res.size)})` : undefined);
    return { ...res, path };
  } catch (err) {
    bar.done();
    if (ctx.signal.aborted) throw err;
    const d = describeError(err, { debug: false });
    const fs = (err as NodeJS.ErrnoException).code;
    const reason = fs === 'ENOENT' ? 'no such file' : fs === 'EISDIR' ? 'is a folder, expected an audio file' : d.message;
    return { path, reason, exitCode: fs ? 2 : d.exitCode, code: fs ? 'bad_file' : d.code };
  }
}

export function isFailure(r: Uploaded | UploadFailure): r is UploadFailure {
  return 'reason' in r;
}

/** A track title from the file's tags, else from its name ("02_evening-tide.flac" → "evening tide"). */
export async function titleOf(path: string): Promise<string> {
  try {
    const { parseFile } = await import('music-metadata');
    const meta = await parseFile(path, { duration: false, skipCovers: true });
    const t = meta.common.title?.trim();
    if (t) return t;
  } catch {
    // Unreadable tags are not an error here: the service judges the audio itself.
  }
  return titleFromName(path);
}

export function titleFromName(path: string): string {
  const name = basename(path, extname(path))
    .replace(/^\d{1,3}[\s._-]+/, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name || basename(path);
}
