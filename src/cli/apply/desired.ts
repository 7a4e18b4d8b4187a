// The desired state of a release from its file: the plan, plus what only the local files can tell
// (each audio's and the cover's sha256, and the title of a track the file leaves untitled). The readers are
// arguments so that tests, and a caller with a cache, can stand in for the disk.
import type { ReleasePlan } from '../release-file/load.js';
import type { DesiredRelease } from './plan.js';

export interface LocalReaders {
  /** The sha256 of a file, 64 lowercase hex digits (the client's hashFile, streamed). */
  hashFile(path: string): Promise<string>;
  /** A track's title from the audio's tags, else its name (shared/audio-title.ts: titleOf). */
  titleOf(path: string): Promise<string>;
}

export async function readDesired(plan: ReleasePlan, readers: LocalReaders): Promise<DesiredRelease> {
  const audioSha256: (string | null)[] = [];
  const defaultTitles: string[] = [];
  // One file at a time: releases run side by side already (--parallel), and disks prefer it.
  for (const t of plan.tracks) {
    // No audio yet: nothing to hash; its title is required.
    if (t.absent) {
      audioSha256.push(null);
      defaultTitles.push(t.fields.title ?? '');
      continue;
    }
    // Audio referred to by its sha256 (release export) has no local file; its title is required.
    audioSha256.push(t.stored ?? (await readers.hashFile(t.path)));
    defaultTitles.push(t.fields.title ?? (await readers.titleOf(t.path)));
  }
  const artworkSha256 = plan.artwork ? (plan.artwork.stored ?? (await readers.hashFile(plan.artwork.path))) : undefined;
  return { plan, audioSha256, defaultTitles, ...(artworkSha256 !== undefined ? { artworkSha256 } : {}) };
}
