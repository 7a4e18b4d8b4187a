// An upload address: the row of a new upload and the signed URL its bytes go to (PUT
// /uploads/{key}, uploads/route.ts). One place for a track's file and a cover alike; what differs
// is the kind (how route.ts probes the bytes) and the Content-Type the client is told to send.
import { randomBytes } from 'node:crypto';
import type { ServerDeps } from '../handler.js';
import { insertUpload, type UploadRow } from '../store/uploads.js';
import { signUpload, UPLOAD_TTL_SECONDS, uploadPath } from './sign.js';

export interface UploadAddressRequest {
  userId: number;
  releaseId: number;
  filename: string;
  /** As the client declared it (stored). */
  contentType: string;
  /** What the client is to send the bytes with. */
  sendContentType: string;
  size: number;
  sha256: string | undefined;
  kind: UploadRow['kind'];
}

export interface UploadAddress {
  key: string;
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Type': string; 'Content-Length': string };
  expires_at: string;
}

export function issueUploadAddress(deps: Pick<ServerDeps, 'db' | 'now' | 'uploadSecret'>, baseUrl: string, a: UploadAddressRequest): UploadAddress {
  const key = `upl_${randomBytes(16).toString('hex')}`;
  const expires = Math.floor(deps.now().getTime() / 1000) + UPLOAD_TTL_SECONDS;
  const expiresAt = new Date(expires * 1000).toISOString();
  const sha256 = a.sha256 ?? '';
  insertUpload(
    deps.db,
    {
      key,
      user_id: a.userId,
      release_id: a.releaseId,
      filename: a.filename,
      content_type: a.contentType,
      size: a.size,
      sha256,
      expires_at: expiresAt,
      kind: a.kind,
    },
    deps.now().toISOString(),
  );
  const signature = signUpload(deps.uploadSecret, { key, expires, size: a.size, sha256 });
  return {
    key,
    upload_url: `${baseUrl}${uploadPath(key, expires, signature)}`,
    method: 'PUT',
    headers: { 'Content-Type': a.sendContentType, 'Content-Length': String(a.size) },
    expires_at: expiresAt,
  };
}
