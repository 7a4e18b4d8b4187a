// Signed upload addresses: HMAC-SHA256 over key, expiry, size and sha256 with a secret kept in
// the data directory's database, so a restart keeps issued addresses valid and nothing about an
// upload (its size, its digest, its lifetime) can be changed by editing the URL.
import type { Database } from 'better-sqlite3';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { metaValueOrInit } from '../store/meta.js';

/** How long an upload address stays valid. */
export const UPLOAD_TTL_SECONDS = 60 * 60;

export function uploadSecret(db: Database): Buffer {
  return Buffer.from(metaValueOrInit(db, 'upload_secret', randomBytes(32).toString('hex')), 'hex');
}

export interface SignedFields {
  key: string;
  /** Unix seconds. */
  expires: number;
  size: number;
  sha256: string;
}

export function signUpload(secret: Buffer, f: SignedFields): string {
  return createHmac('sha256', secret).update(`${f.key}\n${f.expires}\n${f.size}\n${f.sha256}`).digest('hex');
}

export function signatureMatches(secret: Buffer, f: SignedFields, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signUpload(secret, f), 'hex'), Buffer.from(signature, 'hex'));
}

export function uploadPath(key: string, expires: number, signature: string): string {
  return `/uploads/${encodeURIComponent(key)}?expires=${expires}&signature=${signature}`;
}
