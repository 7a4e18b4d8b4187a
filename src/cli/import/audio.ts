// Where each imported track's audio comes from, as the sheet names it: an address (written as
// is: `release apply` downloads it), a file found under --audio-dir (written relative to the
// release file), or nothing yet (the track is written without `file`: apply creates it, and its
// submit waits for the audio). Looked up by path under the folder, else by file name alone.
import { readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { audioUrlProblem } from '../release-file/load.js';
import { AUDIO_EXTENSIONS } from '../release-file/schema.js';
import { isAudioAddress } from '../release-file/audio-address.js';

/** A bound on the folder walk, so a mistaken `/` ends. */
const MAX_FILES = 200_000;

export interface AudioIndex {
  root: string;
  /** Lowercased path relative to root ('/' separated) → absolute path. */
  byPath: Map<string, string>;
  /** Lowercased file name → every absolute path with it. */
  byName: Map<string, string[]>;
}

export async function indexAudioDir(root: string): Promise<AudioIndex> {
  const index: AudioIndex = { root, byPath: new Map(), byName: new Map() };
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      if (count >= MAX_FILES || e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (e.isFile()) {
        count++;
        index.byPath.set(relative(root, path).split(sep).join('/').toLowerCase(), path);
        const name = e.name.toLowerCase();
        index.byName.set(name, [...(index.byName.get(name) ?? []), path]);
      }
    }
  };
  await walk(root);
  return index;
}

export type AudioSource =
  | { kind: 'url'; url: string }
  | { kind: 'file'; path: string; written: string }
  | { kind: 'none'; reason?: { code: string; message: string; severity: 'error' | 'warning' } };

/** What a sheet's audio cell names, found (or not) under the index. */
/** `dir`: the folder of the release files, which a found file's path is written relative to. */
export function audioSource(named: string | undefined, index: AudioIndex | undefined, dir: string): AudioSource {
  if (named === undefined || named.trim() === '') return { kind: 'none' };
  const s = named.trim();
  if (isAudioAddress(s)) {
    const problem = audioUrlProblem(s);
    return problem ? { kind: 'none', reason: { code: 'bad_address', message: problem, severity: 'error' } } : { kind: 'url', url: s };
  }
  if (index === undefined)
    return {
      kind: 'none',
      reason: { code: 'audio_not_looked_up', message: `"${s}": no --audio-dir to find it in; the track is written without audio`, severity: 'warning' },
    };
  const rel = s
    .replace(/\\/g, '/')
    .replace(/^\.?\//, '')
    .toLowerCase();
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const found = index.byPath.get(rel) ?? (index.byName.get(name)?.length === 1 ? index.byName.get(name)![0] : undefined);
  if (found === undefined) {
    const several = (index.byName.get(name)?.length ?? 0) > 1;
    const message = several
      ? `"${s}": ${index.byName.get(name)!.length} files of that name under ${index.root}; name it by its path there. The track is written without audio`
      : `"${s}": no such file under ${index.root}; the track is written without audio`;
    return { kind: 'none', reason: { code: several ? 'audio_ambiguous' : 'audio_not_found', message, severity: 'warning' } };
  }
  if (!(AUDIO_EXTENSIONS as readonly string[]).includes(extname(found).toLowerCase()))
    return {
      kind: 'none',
      reason: { code: 'not_audio', message: `"${s}" is not a WAV, FLAC or AIFF file; the track is written without audio`, severity: 'warning' },
    };
  return { kind: 'file', path: found, written: relative(dir, found).split(sep).join('/') };
}
