// The service's audio rules run here, offline, before anything is sent: `track check` shows
// them per file, and every upload command refuses locally what the service would refuse.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkAudioPath, type AudioCheck } from '../../audio/probe.js';
import type { AudioProblem } from '../../audio/rules.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { plural } from '../output/index.js';
import { fileErrorReason, fileReason } from './file-errors.js';

/** Every named file exists and is a file, or a usage error naming the first that is not. */
export async function requireAudioFiles(files: readonly string[]): Promise<void> {
  for (const f of files) {
    let isFile: boolean;
    try {
      isFile = (await stat(resolve(f))).isFile();
    } catch (err) {
      throw new UsageError(`${f}: ${fileErrorReason(err) ?? `cannot be read (${String((err as NodeJS.ErrnoException).code)})`}`);
    }
    if (!isFile) throw new UsageError(`${f}: ${fileReason('EISDIR')}`);
  }
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
 * Before an upload: throws (exit 3) when the service would refuse any of the files, after one
 * `error: file: reason` line each on stderr (the reason the service would give: its first).
 * Returns each file's check, in order (with the title from its tags: no second read for it).
 */
export async function refuseLocally(ctx: Context, files: readonly { path: string; shown: string }[], consequence = 'nothing was uploaded'): Promise<AudioCheck[]> {
  const checks: AudioCheck[] = [];
  const refused: { shown: string; check: AudioCheck }[] = [];
  for (const f of files) {
    const check = await checkAudioPath(f.path);
    checks.push(check);
    if (check.errors.length > 0) refused.push({ shown: f.shown, check });
  }
  if (refused.length === 0) return checks;
  for (const r of refused) ctx.io.stderr.write(`error: ${r.shown}: ${r.check.errors[0]!.message}\n`);
  throw new CliError(
    `${refused.length} of ${plural(files.length, 'file')} would be refused by the service; ${consequence}`,
    { exitCode: ExitCode.validation, code: refused[0]!.check.errors[0]!.code, hint: `the reasons are listed above; 'reldist track check FILE' shows each file's format and every problem` },
  );
}
