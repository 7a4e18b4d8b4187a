// The same audio added twice to one release (a file dragged in twice, a master exported twice
// under two names): found by sha256, the file's identity on the service. A file is hashed only
// when another has its size, so the usual case, all sizes different, reads nothing.
import { stat } from 'node:fs/promises';
import { hashFile } from '../../client/index.js';

/** Audio known by its path (a local file) or by what the service holds (its sha256, and size when known). */
export type AudioRef = { path: string } | { sha256: string; size?: number | undefined };

/**
 * For each ref, the index of the first earlier ref with the same bytes, or undefined. Paths must
 * exist (the callers checked them).
 */
export async function earlierSameAudio(refs: readonly AudioRef[], signal?: AbortSignal): Promise<(number | undefined)[]> {
  const sizes: (number | undefined)[] = [];
  for (const r of refs) sizes.push('path' in r ? (await stat(r.path)).size : r.size);
  // A size no other ref has (and every other size known) cannot be a duplicate: no read needed.
  const mayRepeat = (i: number) => sizes.some((s, j) => j !== i && (s === undefined || sizes[i] === undefined || s === sizes[i]));
  const digests: (string | undefined)[] = [];
  for (const [i, r] of refs.entries()) {
    if (!('path' in r)) digests.push(r.sha256);
    else digests.push(mayRepeat(i) ? (await hashFile(r.path, undefined, signal)).sha256 : undefined);
  }
  return digests.map((d, i) => {
    if (d === undefined) return undefined;
    const j = digests.indexOf(d);
    return j < i ? j : undefined;
  });
}
