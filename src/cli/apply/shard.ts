// `--shard I/N`: each of N CI jobs takes the releases whose catalog number falls in its share.
// The share depends on the catalog number alone (not on the file's name or place, nor on the
// other files), so a release stays in the same job when files are added, moved or renamed.
import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import { normaliseCatalogNumber } from './catalog-key.js';

export interface Shard {
  /** From 1 to count. */
  index: number;
  count: number;
}

/** The shard (1..count) of a catalog number. SHA-1 for its even spread, not for secrecy. */
export function shardOf(catalogNumber: string, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`shard count must be a positive integer, got ${count}`);
  const digest = createHash('sha1').update(normaliseCatalogNumber(catalogNumber), 'utf8').digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

export function inShard(catalogNumber: string, shard: Shard): boolean {
  return shardOf(catalogNumber, shard.count) === shard.index;
}

const MAX_SHARDS = 1000;

/** Parses `--shard 2/4`; a bad value is a one-line usage error naming the flag. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  if (!m) throw new UsageError(`--shard: expected I/N (this job's share, 1 to N, of N jobs), e.g. 2/4; got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new UsageError(`--shard: N must be from 1 to ${MAX_SHARDS}; got "${text}"`);
  if (index < 1 || index > count) throw new UsageError(`--shard: I must be from 1 to ${count} (the shards are counted from 1); got "${text}"`);
  return { index, count };
}
