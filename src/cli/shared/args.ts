// Arguments and flags several command groups parse the same way: ids, bounded numbers, fixed
// choices, platforms. A bad value is a UsageError naming the flag. Loaded by run files only
// (declarations collect repeatable flags with command.ts's `collect`).
import type { ArtistPlatform } from '../../contract/index.js';
import { UsageError } from '../errors.js';

/** An id from the command line: a positive integer, as the service issues them (anything else is a usage error naming the argument). */
export function idArg(value: string | undefined, what: string): number {
  const v = (value ?? '').trim();
  const id = /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new UsageError(`${what}: expected an id like 42, got ${v === '' ? 'nothing' : `"${v}"`}`);
  }
  return id;
}

/** A whole number flag within bounds; undefined when not given. */
export function intOption(value: unknown, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got "${s}"`);
  }
  return n;
}

/** One of a fixed set of values for a flag. */
export function choiceOption<V extends string>(value: unknown, flag: string, choices: readonly V[]): V | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim().toLowerCase().replace(/-/g, '_') as V;
  if (!choices.includes(s)) throw new UsageError(`${flag}: expected one of ${choices.join(', ')}, got "${String(value)}"`);
  return s;
}

export const PLATFORMS = ['streaming_a', 'video_b', 'store_c'] as const satisfies readonly ArtistPlatform[];

const PLATFORM_ALIASES: Record<string, ArtistPlatform> = {
  streaming_a: 'streaming_a',
  a: 'streaming_a',
  streaming: 'streaming_a',
  video_b: 'video_b',
  b: 'video_b',
  video: 'video_b',
  video_channel: 'video_b',
  store_c: 'store_c',
  c: 'store_c',
  store: 'store_c',
};

/** `--platform streaming_a` (also streaming-a, a, video, store…). */
export function platformOption(value: unknown, flag = '--platform'): ArtistPlatform | undefined {
  if (value === undefined) return undefined;
  const p = PLATFORM_ALIASES[String(value).trim().toLowerCase().replace(/-/g, '_')];
  if (!p) throw new UsageError(`${flag}: expected one of ${PLATFORMS.join(', ')}, got "${String(value)}"`);
  return p;
}
