// A plan written back as a release file (docs/release-file.md) that `release create --file` and
// `release apply` read: the wizard's answers kept when the release could not be finished, or
// saved on purpose with --save. Audio and cover paths are written relative to the file, as it reads them.
import { dirname, join, relative, resolve, sep } from 'node:path';
import { stringify } from 'yaml';
import { writeNewSync, writeWhole } from './write-whole.js';

/** What is written: a release create plan (commands/release/create-steps.ts), by its fields. */
export interface WritablePlan {
  release: object;
  /** The cover image, written relative to the file like the audio. */
  artwork?: { path: string } | undefined;
  tracks: readonly { path: string; fields: object }[];
  delivery?: object | undefined;
  video?: object | undefined;
}

export function releaseFileData(plan: WritablePlan, filePath: string): Record<string, unknown> {
  const dir = dirname(resolve(filePath));
  const tracks = plan.tracks.map((t) => {
    const rel = relative(dir, t.path).split(sep).join('/');
    return { file: rel, ...t.fields };
  });
  return {
    ...plan.release,
    ...(plan.artwork ? { artwork: relative(dir, plan.artwork.path).split(sep).join('/') } : {}),
    ...(tracks.length > 0 ? { tracks } : {}),
    ...(plan.delivery && Object.keys(plan.delivery).length > 0 ? { delivery: plan.delivery } : {}),
    ...(plan.video && Object.keys(plan.video).length > 0 ? { video: plan.video } : {}),
  };
}

/** Writes the plan to `filePath`: JSON for a .json name, YAML otherwise. `exclusive`: never over an existing file (EEXIST). */
export async function saveReleaseFile(plan: WritablePlan, filePath: string, options: { exclusive?: boolean } = {}): Promise<void> {
  const data = releaseFileData(plan, filePath);
  const text = /\.json$/i.test(filePath)
    ? `${JSON.stringify(data, null, 2)}\n`
    : `# A release file (docs/release-file.md), written by reldist release create.\n${stringify(data)}`;
  // Whole or not at all (a second Ctrl-C while the answers are kept must not leave half a release file).
  if (options.exclusive) writeNewSync(resolve(filePath), text);
  else await writeWhole(resolve(filePath), text);
}

/** `night-drive`: a file name's stem from a title (letters and digits, dashes between), `release` when none is left. */
export function fileStem(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)
      .replace(/-$/, '') || 'release'
  );
}

/** The names tried in turn for a new file: `stem.yaml`, `stem-2.yaml`, … `stem-99.yaml`. */
export function candidateNames(stem: string): string[] {
  return Array.from({ length: 99 }, (_, i) => (i === 0 ? `${stem}.yaml` : `${stem}-${i + 1}.yaml`));
}

/**
 * Writes the plan in `dir` under the first of `candidateNames(stem)` that does not exist, never
 * over an existing file (even one made meanwhile); answers the path written.
 */
export async function saveReleaseFileFree(plan: WritablePlan, dir: string, stem: string): Promise<string> {
  for (const name of candidateNames(stem)) {
    const path = join(dir, name);
    try {
      await saveReleaseFile(plan, path, { exclusive: true });
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(`${join(dir, `${stem}.yaml`)} and the 98 names after it exist`);
}
