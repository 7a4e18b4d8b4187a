// PUT /uploads/{key}?expires=…&signature=…: the upload address handed out by
// POST /releases/{id}/tracks/upload-url. The signature is the credential (no bearer token, as
// with any pre-signed URL). The bytes stream to a temporary file through a sha256 hash; only a
// file that matches the declared size and digest and passes the audio rules is moved (renamed,
// so atomically) into place. A refused upload leaves no file behind.
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from 'hono';
import { ServiceError, type ServerDeps } from '../handler.js';
import type { AppEnv } from '../http/env.js';
import { isAllowed } from '../rules/state-machine.js';
import { findUpload, markUploadReady, markUploadRefused, uploadFilePath, uploadReleaseStatus, uploadsDir, uploadsTmpDir } from '../store/uploads.js';
import { probeAudio } from './probe.js';
import { receiveToFile } from './receive.js';
import { signatureMatches } from './sign.js';

const badSignature = () =>
  new ServiceError(403, 'upload_signature_invalid', 'the upload address is not valid (altered or unknown); ask for a new one with POST …/tracks/upload-url');

export async function receiveUpload(c: Context<AppEnv>, deps: ServerDeps): Promise<Response> {
  try {
    return await receive(c, deps);
  } catch (e) {
    // Refused before the body was read to its end: the rest of it is still on the socket, so
    // the connection must not carry another request.
    if (e instanceof ServiceError && !bodyDone.has(c)) {
      throw new ServiceError(e.status, e.code, e.message, { ...(e.fields ? { fields: e.fields } : {}), headers: { ...e.headers, connection: 'close' } });
    }
    throw e;
  }
}

const bodyDone = new WeakSet<Context<AppEnv>>();

function assertReleaseTakesUploads(deps: ServerDeps, key: string): void {
  const status = uploadReleaseStatus(deps.db, key);
  if (!status) throw new ServiceError(404, 'not_found', 'the release of this upload no longer exists');
  if (!isAllowed(status, 'upload')) {
    throw new ServiceError(409, 'state_conflict', `the release is ${status}: no files can be uploaded to it`);
  }
}

async function receive(c: Context<AppEnv>, deps: ServerDeps): Promise<Response> {
  const key = c.req.param('key') ?? '';
  const expires = Number(c.req.query('expires'));
  const signature = c.req.query('signature') ?? '';
  const upload = /^upl_[0-9a-f]{32}$/.test(key) ? findUpload(deps.db, key) : undefined;
  if (!upload || !Number.isSafeInteger(expires)) throw badSignature();
  if (!signatureMatches(deps.uploadSecret, { key, expires, size: upload.size, sha256: upload.sha256 }, signature)) throw badSignature();
  if (expires * 1000 <= deps.now().getTime()) {
    throw new ServiceError(410, 'upload_expired', 'the upload address has expired; ask for a new one with POST …/tracks/upload-url');
  }
  assertReleaseTakesUploads(deps, key);

  // Owner only, like the files in them (receive.ts writes them 0600).
  await mkdir(uploadsTmpDir(deps.dataDir), { recursive: true, mode: 0o700 });
  await mkdir(uploadsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  const tmp = join(uploadsTmpDir(deps.dataDir), `${key}.${randomBytes(6).toString('hex')}.part`);
  const got = await receiveToFile(c.req.raw.body, tmp, upload.size);
  bodyDone.add(c);
  try {
    if (got.bytes !== upload.size) {
      throw new ServiceError(422, 'upload_mismatch', `received ${got.bytes} bytes but ${upload.size} were declared`);
    }
    if (got.sha256 !== upload.sha256) {
      throw new ServiceError(422, 'upload_mismatch', `the file's sha256 is ${got.sha256}, not the declared ${upload.sha256}`);
    }
    const info = await probeAudio(tmp, got.bytes);
    // Asked again, and the file moved and recorded in the same step: while the bytes arrived the
    // release may have been deleted (its files already removed) or submitted.
    deps.db
      .transaction(() => {
        assertReleaseTakesUploads(deps, key);
        renameSync(tmp, uploadFilePath(deps.dataDir, key));
        markUploadReady(deps.db, key, info, deps.now().toISOString());
      })
      .immediate();
    return c.json({ key, state: 'ready', size: got.bytes, sha256: got.sha256, ...info }, 200);
  } catch (e) {
    await rm(tmp, { force: true });
    if (e instanceof ServiceError) markUploadRefused(deps.db, key, `${e.code}: ${e.message}`);
    throw e;
  }
}
