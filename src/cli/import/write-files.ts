// The release files of an import: one per release, named by its catalog number, in the YAML
// `release export` writes. Every name is decided and the folder looked at before the first file
// is written: files in the way (without --force) write nothing; each file is written whole.
import { mkdir, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { runPool } from '../apply/pool.js';
import { UsageError } from '../errors.js';
import { plural } from '../output/index.js';
import { exportFileName } from '../release-file/export.js';
import { writeWhole } from '../release-file/write-whole.js';
import { toYaml } from '../release-file/yaml-emit.js';
import type { ImportedRelease } from './group.js';
import { isAudioAddress } from '../release-file/audio-address.js';

/** Files named in the refusal when some are in the way (the count says the rest). */
const NAMED_IN_REFUSAL = 10;

/** A file name per release, unique whatever the file system's case rules ("NLR/1" and "NLR_1" both want NLR_1.yaml). */
export function fileNames(releases: readonly ImportedRelease[]): string[] {
  const used = new Set<string>();
  return releases.map((r) => {
    const base = exportFileName(r.catalogNumber, 'yaml');
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = base.replace(/\.yaml$/, `-${n}.yaml`);
    used.add(name.toLowerCase());
    return name;
  });
}

/** Refuses (nothing written) when any of `names` is already in `dir`, unless forced. */
export async function refuseOverwrite(dir: string, shownDir: string, names: readonly string[], force: boolean): Promise<void> {
  if (force || names.length === 0) return;
  let taken: Set<string>;
  try {
    taken = new Set((await readdir(dir)).map((n) => n.toLowerCase()));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new UsageError(`--dir ${shownDir}: not a folder`);
    throw err;
  }
  const inTheWay = names.filter((n) => taken.has(n.toLowerCase()));
  if (inTheWay.length === 0) return;
  const more = inTheWay.length > NAMED_IN_REFUSAL ? ` and ${inTheWay.length - NAMED_IN_REFUSAL} more` : '';
  throw new UsageError(
    `${plural(inTheWay.length, 'release file')} already in ${shownDir}: ${inTheWay.slice(0, NAMED_IN_REFUSAL).join(', ')}${more}; nothing was written`,
    'pass --force to replace them, or import to another --dir',
  );
}

export async function writeReleaseFiles(
  dir: string,
  shownDir: string,
  source: string,
  items: readonly { release: ImportedRelease; name: string }[],
): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--dir ${shownDir}: ${code === 'EEXIST' || code === 'ENOTDIR' ? 'not a folder' : `cannot be made (${code ?? 'error'})`}; nothing was written`,
    );
  }
  await runPool(items, WRITES_IN_FLIGHT, async ({ release, name }) => {
    const lines = release.rows.map((r) => r.line);
    const header = `# A release file (docs/release-file.md), written by reldist release import from ${basename(source)} (${lineRange(lines)}).\n`;
    // An address with a query may be signed (its signature a secret): such a file is the owner's alone.
    await writeWhole(join(dir, name), header + toYaml(release.data), holdsQueryAddress(release.data) ? 0o600 : 0o644);
  });
}

/** Files written at once (as release export): one at a time, a thousand files wait on the disk most of the run. */
const WRITES_IN_FLIGHT = 16;

function holdsQueryAddress(data: Record<string, unknown>): boolean {
  const tracks = (data.tracks as { file?: string }[] | undefined) ?? [];
  return tracks.some((t) => t.file !== undefined && isAudioAddress(t.file) && /[?#]/.test(t.file));
}

function lineRange(lines: readonly number[]): string {
  const min = Math.min(...lines);
  const max = Math.max(...lines);
  return min === max ? `line ${min}` : `lines ${min}-${max}`;
}
