// The service's audio rules run here, offline, before anything is sent: `track check` shows
// them per file, and every upload command refuses locally what the service would refuse.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkAudioPath, type AudioCheck } from '../../audio/probe.js';
import type { AudioProblem } from '../../audio/rules.js';
import { BadInputFiles, type FileProblem } from '../errors.js';
import { plural } from '../output/index.js';
import { fileErrorReason, fileReason } from './file-errors.js';

const FILE_CODES: Record<string, string> = { ENOENT: 'file_not_found', EISDIR: 'not_a_file', EACCES: 'file_not_readable' };

/** Every named file exists and is a file, or a usage error (exit 2) naming each that is not. */
export async function requireAudioFiles(files: readonly string[]): Promise<void> {
  const bad: FileProblem[] = [];
  for (const f of files) {
    try {
      if (!(await stat(resolve(f))).isFile()) bad.push({ file: f, code: FILE_CODES.EISDIR!, message: fileReason('EISDIR')! });
    } catch (err) {
      const errno = String((err as NodeJS.ErrnoException).code);
      bad.push({ file: f, code: FILE_CODES[errno] ?? 'file_not_readable', message: fileErrorReason(err) ?? `cannot be read (${errno})` });
    }
  }
  if (bad.length === 0) return;
  const only = bad.length === 1 ? bad[0] : undefined;
  throw new BadInputFiles(only ? `${only.file}: ${only.message}` : `${bad.length} of ${plural(files.length, 'file')} cannot be read; nothing was sent`, bad);
}

/** Each file (which must exist) held against every rule of the service, and measured for quality. */
export async function checkAudioFiles(files: readonly string[]): Promise<AudioCheck[]> {
  const out: AudioCheck[] = [];
  for (const f of files) out.push({ ...(await checkAudioPath(resolve(f), { measure: true })), path: f });
  return out;
}

/** The reason the service would refuse the file at `path` with (its first problem), if any. */
export async function firstRefusal(path: string): Promise<AudioProblem | undefined> {
  return (await checkAudioPath(path)).errors[0];
}

/**
 * Before an upload: throws (exit 2: bad input files) when the service would refuse any of the
 * files (not audio, or audio it does not take), naming each with the reason the service would
 * give (its first). Returns each file's check, in order (with the title from its tags: no second read for it).
 */
export async function refuseLocally(
  files: readonly { path: string; shown: string; namedIn?: string }[],
  consequence = 'nothing was uploaded',
): Promise<AudioCheck[]> {
  const checks: AudioCheck[] = [];
  const refused: { shown: string; namedIn: string | undefined; check: AudioCheck }[] = [];
  for (const f of files) {
    const check = await checkAudioPath(f.path);
    checks.push(check);
    if (check.errors.length > 0) refused.push({ shown: f.shown, namedIn: f.namedIn, check });
  }
  if (refused.length === 0) return checks;
  throw new BadInputFiles(
    `${refused.length} of ${plural(files.length, 'file')} would be refused by the service; ${consequence}`,
    refused.map((r) => ({
      file: r.shown,
      code: r.check.errors[0]!.code,
      message: r.check.errors[0]!.message,
      ...(r.namedIn !== undefined ? { named_in: r.namedIn } : {}),
    })),
    `the reasons are listed above; 'reldist track check FILE' shows each file's format and every problem`,
  );
}
