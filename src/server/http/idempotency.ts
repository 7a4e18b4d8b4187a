// Idempotency-Key for every mutation (POST, PUT, PATCH, DELETE): the first response for (user, key) is stored with a hash of
// method + path + body; a retry with the same request replays it, a different request under the
// same key is refused. Stored only for responses below 500, so a failure can be retried for real.
// A key still "in progress" after IDEMPOTENCY_STALE_MS belongs to a process that died mid-request
// (the embedded sandbox runs one short-lived server per CLI command): the next request takes it over.
import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { idempotencyKeyPattern } from '../../contract/routes.js';
import { ServiceError } from '../handler.js';
import { deleteIdempotencyRecord, findIdempotencyRecord, insertIdempotencyRecord, saveIdempotentResponse, takeOverIdempotencyRecord } from '../store/idempotency.js';

export type IdempotencyStart =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: string };

/** No catalog request runs this long; a key in progress for longer was left by a crashed process. */
export const IDEMPOTENCY_STALE_MS = 30_000;

export function requestHash(method: string, path: string, body: Uint8Array): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('hex');
}

export function beginIdempotent(db: Database, userId: number, key: string, hash: string, now: Date): IdempotencyStart {
  const nowIso = now.toISOString();
  if (!idempotencyKeyPattern.test(key)) {
    throw new ServiceError(400, 'bad_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return db
    .transaction((): IdempotencyStart => {
      const row = findIdempotencyRecord(db, userId, key);
      if (!row) {
        insertIdempotencyRecord(db, userId, key, hash, nowIso);
        return { kind: 'new' };
      }
      if (row.request_hash !== hash) {
        throw new ServiceError(
          422,
          'idempotency_key_reused',
          'this Idempotency-Key was already used for a different request; use a new key for a new request',
        );
      }
      if (row.status === null && Date.parse(row.created_at) <= now.getTime() - IDEMPOTENCY_STALE_MS) {
        takeOverIdempotencyRecord(db, userId, key, nowIso);
        return { kind: 'new' };
      }
      if (row.status === null) {
        throw new ServiceError(409, 'idempotency_in_progress', 'a request with this Idempotency-Key is still running; retry shortly', {
          headers: { 'retry-after': '1' },
        });
      }
      return { kind: 'replay', status: row.status, body: row.body ?? '' };
    })
    .immediate();
}

export function finishIdempotent(db: Database, userId: number, key: string, status: number, body: string): void {
  // Not an answer to keep: the same key may try again (a batch refused by the rate limit is
  // refused after its key was recorded).
  if (status >= 500 || status === 429) {
    deleteIdempotencyRecord(db, userId, key);
    return;
  }
  saveIdempotentResponse(db, userId, key, status, body);
}

/** A stored error body with `request_id` set to the replaying request's id; other bodies as stored. */
export function withRequestId(status: number, body: string, requestId: string): string {
  if (status < 400) return body;
  try {
    const parsed = JSON.parse(body) as { error?: { request_id?: string } };
    if (typeof parsed.error?.request_id !== 'string') return body;
    parsed.error.request_id = requestId;
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}
