// The cover rules, offline, on a local image (src/artwork: the probe and rules the service runs):
// for `artwork check`, and before every command that uploads a cover. What the service would
// refuse at upload (not an image, cut short, animated, too many pixels, too large) stops the
// command before anything is sent; what the submit would block (CMYK, too small…) is a warning.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ArtworkFacts, ArtworkProblem, ArtworkRefusal } from '../../artwork/rules.js';
import type { Context } from '../context.js';
import { BadInputFiles } from '../errors.js';
import { warn } from '../output/index.js';
import { requireAudioFiles } from './audio-check.js';

export interface ArtworkCheck {
  /** As given. */
  path: string;
  sizeBytes: number;
  /** Undefined when the file was refused before its facts could be read. */
  facts: ArtworkFacts | undefined;
  /** Why the service would refuse the upload; undefined when it would take it. */
  refusal: ArtworkRefusal | undefined;
  /** What the submit checks would say of it as the release's cover. */
  problems: ArtworkProblem[];
}

/** The image at `path` (which must exist) held against the upload's refusals and the submit's cover rules. */
export async function checkArtworkPath(path: string): Promise<ArtworkCheck> {
  const [{ probeArtwork }, rules] = await Promise.all([import('../../artwork/probe.js'), import('../../artwork/rules.js')]);
  const abs = resolve(path);
  const { size } = await stat(abs);
  if (size > rules.artworkMaxBytes) return { path, sizeBytes: size, facts: undefined, refusal: rules.refusals.tooLarge(size), problems: [] };
  const probe = await probeArtwork(abs);
  if (!probe.ok) return { path, sizeBytes: size, facts: undefined, refusal: probe.refusal, problems: [] };
  return { path, sizeBytes: size, facts: probe.facts, refusal: undefined, problems: rules.artworkProblems(probe.facts) };
}

/** Every file exists and is a file; else exit 2 naming each, nothing read. */
export const requireArtworkFiles = requireAudioFiles;

/**
 * Before a cover is uploaded: the file exists and the service would take it (else exit 2, naming
 * where it was given (`--artwork`, `release.yaml: artwork`) and the file, nothing sent); what the
 * submit would block is a warning on stderr. `path` is read, `shown` is how the user wrote it.
 */
export async function checkCoverBeforeUpload(
  ctx: Context,
  cover: { path: string; shown: string },
  where: string,
  consequence = 'nothing was uploaded',
): Promise<ArtworkCheck> {
  const { path, shown } = cover;
  try {
    await requireArtworkFiles([path]);
  } catch (err) {
    // The reason is on the file's own line, shown above the error.
    const files = err instanceof BadInputFiles ? err.files.map((f) => ({ ...f, file: shown })) : [];
    throw new BadInputFiles(`${where} ${shown} cannot be read; ${consequence}`, files);
  }
  const check = await checkArtworkPath(path);
  if (check.refusal) {
    throw new BadInputFiles(
      `${where} ${shown} would be refused by the service; ${consequence}`,
      [{ file: shown, code: check.refusal.code, message: check.refusal.message }],
      `'reldist artwork check ${shown}' shows what the image is`,
    );
  }
  for (const p of check.problems) warn(ctx, `${shown}: ${p.message} (${p.code}${p.severity === 'error' ? ', blocks the submit' : ''})`);
  return check;
}
