// A track's title when the user gave none: from the audio file's tags, else from its name.
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { probeAudioFile } from '../../audio/probe.js';

/**
 * A track title from the file's tags, else from its name ("02_evening-tide.flac" → "evening tide").
 * Read by the audio check's own probe: a plain WAV or AIFF (no tag chunks) from its headers alone,
 * without loading music-metadata, and every file to the same title the check and the upload see.
 */
export async function titleOf(path: string): Promise<string> {
  try {
    const { size } = await stat(path);
    return titleFrom((await probeAudioFile(path, size))?.title, path);
  } catch {
    // Unreadable tags are not an error here: the service judges the audio itself.
  }
  return titleFromName(path);
}

/** The title from tags already read (`tagTitle`, e.g. by the audio check), else from the file's name. */
export function titleFrom(tagTitle: string | undefined, path: string): string {
  return tagTitle?.trim() || titleFromName(path);
}

export function titleFromName(path: string): string {
  const name = basename(path, extname(path))
    .replace(/^\d{1,3}[\s._-]+/, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!name) return basename(path);
  // "low tide" → "Low Tide": an all-lowercase title is a warning at submit.
  return name === name.toLowerCase() ? name.replace(/(^|\s)(\p{Ll})/gu, (_, s: string, c: string) => s + c.toUpperCase()) : name;
}
