// Uploads in parts (docs/api.md, "Uploading audio"), in the manner of S3's multipart uploads and
// the resumable uploads of tus: the parts of one file arrive in any order, several at once, each
// checked against the checksum its request declared (Upload-Checksum, crc32 or sha256, as tus's
// checksum extension) and written at its offset into
// one file per upload; what the service holds can be asked at any time (GET on the address); the
// completion declares the whole file's sha256, which the service checks by reading the file once
// before it probes the audio and the upload counts as complete. The route (route.ts) calls these.
import { renameSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { ServiceError, type ServerDeps } from '../handler.js';
import { recordUploadReady } from '../events/record.js';
import { audioFactsOf, dropParts, partsOf, type PartRow } from '../store/upload-parts.js';
import {
  findUpload,
  markUploadReady,
  markUploadRefused,
  uploadFilePath,
  uploadPartsDir,
  uploadPartsPath,
  uploadsDir,
  type UploadRow,
} from '../store/uploads.js';
import { partCount } from './address.js';
import { probeAudio } from './probe.js';
import type { RunningDigests } from './running-digest.js';
import type { AudioInfo } from '../../audio/rules.js';

/** The bytes part `part` (from 1) of an upload in parts covers; a ServiceError for a number out of range. */
export function partSpan(upload: UploadRow & { part_size: number }, part: number): { offset: number; size: number } {
  const count = partCount(upload.size, upload.part_size);
  if (!Number.isSafeInteger(part) || part < 1 || part > count) {
    throw new ServiceError(404, 'not_found', `upload ${upload.key} has parts 1 to ${count}; there is no part ${part}`);
  }
  const offset = (part - 1) * upload.part_size;
  return { offset, size: Math.min(upload.part_size, upload.size - offset) };
}

export const inParts = (u: UploadRow): u is UploadRow & { part_size: number } => u.part_size !== null;

/** What GET on a signed address answers (UploadStatus). */
export function statusOf(deps: Pick<ServerDeps, 'db'>, u: UploadRow) {
  const parts = u.state === 'ready' ? [] : partsOf(deps.db, u.key);
  const held = parts.reduce((sum, p) => sum + p.size, 0);
  return {
    key: u.key,
    size: u.size,
    part_size: u.part_size,
    state: u.state === 'ready' ? ('ready' as const) : ('receiving' as const),
    received_bytes: u.state === 'ready' ? u.size : held,
    parts,
  };
}

/** The file the parts are written into, created (owner only) when the first part comes. */
export async function partsFile(dataDir: string, key: string): Promise<string> {
  await mkdir(uploadPartsDir(dataDir), { recursive: true, mode: 0o700 });
  const path = uploadPartsPath(dataDir, key);
  await (await open(path, 'a', 0o600)).close();
  return path;
}

/** An upload in parts complete already (a completion asked again): its answer, the same as a whole PUT's (UploadResult). */
export function completedAnswer(deps: Pick<ServerDeps, 'db'>, u: UploadRow) {
  const info = audioFactsOf(deps.db, u.key);
  if (!info) throw new ServiceError(404, 'not_found', `upload ${u.key} is not a complete audio file`);
  return { key: u.key, state: 'ready' as const, size: u.size, sha256: u.sha256, ...info };
}

/** Drops what an upload in parts holds: the completion found it wrong, so all of it is to be sent again. */
async function dropAll(deps: Pick<ServerDeps, 'db' | 'dataDir'>, key: string): Promise<void> {
  dropParts(deps.db, key);
  await rm(uploadPartsPath(deps.dataDir, key), { force: true });
}

/**
 * Completes an upload in parts whose every part is held: the whole file's sha256 against the one
 * declared (at the address or now), then the audio probe, then the file moved into place and the
 * upload marked ready, in one transaction that asks again whether the release takes uploads.
 */
export async function completeParts(
  deps: ServerDeps,
  upload: UploadRow & { part_size: number },
  declared: string,
  requestId: string,
  assertReleaseTakesUploads: (key: string) => void,
  digests: RunningDigests,
) {
  const { key } = upload;
  const count = partCount(upload.size, upload.part_size);
  const heldParts: PartRow[] = partsOf(deps.db, key);
  const held = new Set(heldParts.map((p) => p.part));
  if (held.size < count) {
    const missing: number[] = [];
    for (let n = 1; n <= count && missing.length < 10; n++) if (!held.has(n)) missing.push(n);
    throw new ServiceError(
      409,
      'upload_incomplete',
      `upload ${key} holds ${held.size} of its ${count} parts; missing: ${missing.join(', ')}${count - held.size > missing.length ? ', …' : ''}; PUT them to part_url, then complete it`,
    );
  }
  const path = uploadPartsPath(deps.dataDir, key);
  const got = await digests.digest(key, path, upload.size, heldParts);
  if (got !== declared) {
    await dropAll(deps, key);
    markUploadRefused(deps.db, key, `upload_mismatch: the whole file's sha256 is ${got}, not the declared ${declared}`);
    throw new ServiceError(
      422,
      'upload_mismatch',
      `the whole file's sha256 is ${got}, not the declared ${declared}; the parts held were dropped: send the file again`,
    );
  }
  let info: AudioInfo;
  try {
    info = await probeAudio(path, upload.size);
  } catch (e) {
    // The audio is refused for what it is: the same bytes would be again.
    if (e instanceof ServiceError) await dropAll(deps, key);
    throw e;
  }
  await mkdir(uploadsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  deps.db
    .transaction(() => {
      if (!findUpload(deps.db, key)) throw new ServiceError(404, 'not_found', `upload ${key} was discarded`);
      assertReleaseTakesUploads(key);
      renameSync(path, uploadFilePath(deps.dataDir, key));
      markUploadReady(deps.db, key, info, got, deps.now().toISOString());
      dropParts(deps.db, key);
      recordUploadReady(deps.db, upload, { ...info, size: upload.size, sha256: got }, requestId, deps.now().toISOString());
    })
    .immediate();
  return { key, state: 'ready' as const, size: upload.size, sha256: got, ...info };
}
