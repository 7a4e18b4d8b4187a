// How a track's file goes up: in one PUT up to one part's size, in parts above it, that many at
// once, with a checkpoint to continue from (shared/upload-checkpoints.ts). The defaults suit a
// long-distance link (several connections fill what one cannot) and cost little on a fast one;
// RELDIST_UPLOAD_PART_SIZE (bytes, or with KiB/MiB: `8MiB`), RELDIST_UPLOAD_CONNECTIONS and
// RELDIST_UPLOAD_CHECKPOINTS=off change them, and the flags --part-size and --connections (docs/commands.md, "Uploads").
import type { PartsSettings } from '../../client/index.js';
import { uploadPartBounds } from '../../contract/routes.js';
import { UsageError } from '../errors.js';
import type { Env } from '../io.js';
import { checkpointStore } from './upload-checkpoints.js';
import type { UploadFlags } from './upload-flags.js';

export type { UploadFlags };

const MiB = 1024 * 1024;
export const DEFAULT_PART_SIZE = 8 * MiB;
export const DEFAULT_CONNECTIONS = 6;
export const MAX_CONNECTIONS = 8;

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kib: 1024, m: MiB, mib: MiB };

/** `16MiB`, `8M`, `1048576` → bytes; a UsageError naming `name` outside the bounds. */
export function parsePartSize(text: string, name: string): number {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  const bytes = m && unit !== undefined ? Number(m[1]) * unit : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < uploadPartBounds.minBytes || bytes > uploadPartBounds.maxBytes) {
    throw new UsageError(`${name}: a part size from 1MiB to 64MiB (bytes, or with KiB or MiB), not "${text}"`);
  }
  return bytes;
}

export function parseConnections(text: string, name: string): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONNECTIONS) throw new UsageError(`${name}: from 1 to ${MAX_CONNECTIONS} connections, not "${text}"`);
  return n;
}

/**
 * The settings of an upload of `file` to the service at `baseUrl`, from the environment (flags,
 * when a command has them, win); its checkpoint is `scope`'s (shared/upload-checkpoints.ts).
 */
/** The part size and connections the flags or the environment ask for: a bad value is a usage error, checked before anything is sent. */
export function partSettings(env: Env, flags: UploadFlags = {}): { partSize: number; connections: number } {
  const sizeText = flags.partSize ?? env.RELDIST_UPLOAD_PART_SIZE;
  const connectionsText = flags.connections ?? env.RELDIST_UPLOAD_CONNECTIONS;
  const sizeName = flags.partSize !== undefined ? '--part-size' : 'RELDIST_UPLOAD_PART_SIZE';
  const connectionsName = flags.connections !== undefined ? '--connections' : 'RELDIST_UPLOAD_CONNECTIONS';
  return {
    partSize: sizeText === undefined || sizeText === '' ? DEFAULT_PART_SIZE : parsePartSize(sizeText, sizeName),
    connections: connectionsText === undefined || connectionsText === '' ? DEFAULT_CONNECTIONS : parseConnections(connectionsText, connectionsName),
  };
}

export function partsSettings(env: Env, baseUrl: string, file: string, scope: string, flags: UploadFlags = {}): PartsSettings {
  const off = /^(off|0|false|no)$/i.test(env.RELDIST_UPLOAD_CHECKPOINTS ?? '');
  return { ...partSettings(env, flags), ...(off ? {} : { checkpoint: checkpointStore(env, baseUrl, file, scope) }) };
}
