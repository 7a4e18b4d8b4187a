// Idempotency records: per (user, key), the hash of the first request and, once it finished, its
// response. The protocol (replay, refuse, in progress) is in http/idempotency.ts.
import type { Database } from 'better-sqlite3';
import { statement } from './statements.js';

export interface IdempotencyRecord {
  request_hash: string;
  /** null while the first request is still running. */
  status: number | null;
  body: string | null;
  created_at: string;
}

export function findIdempotencyRecord(db: Database, userId: number, key: string): IdempotencyRecord | undefined {
  return statement(db, 'SELECT request_hash, status, body, created_at FROM idempotency WHERE user_id = ? AND key = ?').get(userId, key) as
    | IdempotencyRecord
    | undefined;
}

export function insertIdempotencyRecord(db: Database, userId: number, key: string, requestHash: string, nowIso: string): void {
  statement(db, 'INSERT INTO idempotency (user_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)').run(userId, key, requestHash, nowIso);
}

export function saveIdempotentResponse(db: Database, userId: number, key: string, status: number, body: string): void {
  statement(db, 'UPDATE idempotency SET status = ?, body = ? WHERE user_id = ? AND key = ?').run(status, body, userId, key);
}

/** A key left in progress by a request that never finished: the next request with it starts afresh. */
export function takeOverIdempotencyRecord(db: Database, userId: number, key: string, nowIso: string): void {
  statement(db, 'UPDATE idempotency SET created_at = ? WHERE user_id = ? AND key = ?').run(nowIso, userId, key);
}

export function deleteIdempotencyRecord(db: Database, userId: number, key: string): void {
  statement(db, 'DELETE FROM idempotency WHERE user_id = ? AND key = ?').run(userId, key);
}

/** Forgets every key first used before `cutoffIso`. */
export function forgetIdempotencyKeysBefore(db: Database, cutoffIso: string): void {
  statement(db, 'DELETE FROM idempotency WHERE created_at < ?').run(cutoffIso);
}
