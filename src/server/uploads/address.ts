// An upload address: the row of a new upload and the signed URL its bytes go to (PUT
// /uploads/{key}, uploads/route.ts). One place for a track's file and a cover alike; what differs
// is the kind (how route.ts probes the bytes) and the Content-Type the client is told to send.
// An upload in parts (asked for with a part size) gets the addresses of its parts and of its
// completion too, under the same signature; asked for again with its key (`resumeKey`), the
// same upload gets a new address and the list of the parts the service holds.
import { randomBytes } from 'node:crypto';
import type { ServerDeps } from '../handler.js';
import { partsOf, renewUpload, uploadIsAttached } from '../store/upload-parts.js';
import { findUpload, insertUpload, signedSha256Of, type UploadRow } from '../store/uploads.js';
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
  /** Send it in parts of this many bytes. */
  partSize?: number | undefined;
  /** Continue this upload in parts when it can be (else a new one). */
  resumeKey?: string | undefined;
}

export interface UploadAddress {
  key: string;
  upload_url: string;
  method: 'PUT';
  headers: { 'Content-Type': string; 'Content-Length': string };
  expires_at: string;
  parts?: {
    part_size: number;
    count: number;
    part_url: string;
    complete_url: string;
    state: 'receiving' | 'ready';
    received: { part: number; size: number; checksum: string }[];
  };
}

/** How many parts an upload of `size` bytes has in parts of `partSize`. */
export const partCount = (size: number, partSize: number): number => Math.ceil(size / partSize);

/**
 * An upload that `a` may continue: the caller's, of the same file size and part size, not refused,
 * named by nothing yet. Asked for another of the caller's releases (a `release create --file` run
 * again after a kill makes a new draft), it moves there: nothing names it in the old one.
 */
function resumable(deps: Pick<ServerDeps, 'db'>, a: UploadAddressRequest): UploadRow | undefined {
  if (a.resumeKey === undefined || a.partSize === undefined) return undefined;
  const u = findUpload(deps.db, a.resumeKey);
  if (!u || u.user_id !== a.userId || u.kind !== a.kind || u.size !== a.size || u.part_size !== a.partSize) return undefined;
  if (u.state === 'rejected' || uploadIsAttached(deps.db, u.key)) return undefined;
  // A digest declared now must be the one its bytes have (complete), or the one it was signed with, if any.
  if (a.sha256 !== undefined) {
    const known = u.state === 'ready' ? u.sha256 : signedSha256Of(u);
    if (known !== '' && known !== a.sha256) return undefined;
  }
  return u;
}

export function issueUploadAddress(deps: Pick<ServerDeps, 'db' | 'now' | 'uploadSecret'>, baseUrl: string, a: UploadAddressRequest): UploadAddress {
  const expires = Math.floor(deps.now().getTime() / 1000) + UPLOAD_TTL_SECONDS;
  const expiresAt = new Date(expires * 1000).toISOString();
  const nowIso = deps.now().toISOString();
  const resumed = resumable(deps, a);
  let key: string;
  let signedSha256: string;
  if (resumed) {
    key = resumed.key;
    signedSha256 = signedSha256Of(resumed);
    renewUpload(deps.db, key, a.releaseId, expiresAt, nowIso);
  } else {
    key = `upl_${randomBytes(16).toString('hex')}`;
    signedSha256 = a.sha256 ?? '';
    insertUpload(
      deps.db,
      {
        key,
        user_id: a.userId,
        release_id: a.releaseId,
        filename: a.filename,
        content_type: a.contentType,
        size: a.size,
        sha256: signedSha256,
        expires_at: expiresAt,
        kind: a.kind,
        part_size: a.partSize,
      },
      nowIso,
    );
  }
  const signature = signUpload(deps.uploadSecret, { key, expires, size: a.size, sha256: signedSha256 });
  const path = uploadPath(key, expires, signature);
  const [where, query] = path.split('?') as [string, string];
  return {
    key,
    upload_url: `${baseUrl}${path}`,
    method: 'PUT',
    headers: { 'Content-Type': a.sendContentType, 'Content-Length': String(a.size) },
    expires_at: expiresAt,
    ...(a.partSize === undefined
      ? {}
      : {
          parts: {
            part_size: a.partSize,
            count: partCount(a.size, a.partSize),
            part_url: `${baseUrl}${where}/parts/{part}?${query}`,
            complete_url: `${baseUrl}${where}/complete?${query}`,
            state: resumed?.state === 'ready' ? ('ready' as const) : ('receiving' as const),
            received: resumed ? partsOf(deps.db, key) : [],
          },
        }),
  };
}
