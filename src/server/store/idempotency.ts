// Idempotency records: per (user, key), the hash of the first request, the request that holds
// the key while it runs (its owner) and, once it finished, its response. The protocol (replay,
// refuse, in progress, take over) is in http/idempotency.ts.
import type { Database } from 'better-sqlite3';
import { statement } from './statements.js';

/** The request holding a key: a token of its own, and the process it runs in. */
export interface KeyOwner {
  token: string;
  pid: number;
  host: string;
}

export interface IdempotencyRecord {
  request_hash: string;
  /** null while the first request is still running. */
  status: number | null;
  body: string | null;
  created_at: string;
  /** null in rows written before owners were recorded. */
  owner: string | null;
  owner_pid: number | null;
  owner_host: string | null;
}

export function findIdempotencyRecord(db: Database, userId: number, key: string): IdempotencyRecord | undefined {
  return statement(db, 'SELECT request_hash, status, body, created_at, owner, owner_pid, owner_host FROM idempotency WHERE user_id = ? AND key = ?').get(
    userId,
    key,
  ) as IdempotencyRecord | undefined;
}

export function insertIdempotencyRecord(db: Database, userId: number, key: string, requestHash: string, nowIso: string, owner: KeyOwner): void {
  statement(db, 'INSERT INTO idempotency (user_id, key, request_hash, created_at, owner, owner_pid, owner_host) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    userId,
    key,
    requestHash,
    nowIso,
    owner.token,
    owner.pid,
    owner.host,
  );
}

/**
 * Saves the answer, if `owner` still holds the key (it may have been taken over meanwhile):
 * false when it does not. Run in the transaction of the write it answers.
 */
export function saveIdempotentResponse(db: Database, userId: number, key: string, owner: string, status: number, body: string): boolean {
  return (
    statement(db, 'UPDATE idempotency SET status = ?, body = ? WHERE user_id = ? AND key = ? AND owner = ? AND status IS NULL').run(
      status,
      body,
      userId,
      key,
      owner,
    ).changes === 1
  );
}

/** A key left in progress by a request that never finished: `owner` starts afresh with it. */
export function takeOverIdempotencyRecord(db: Database, userId: number, key: string, nowIso: string, owner: KeyOwner): void {
  statement(db, 'UPDATE idempotency SET created_at = ?, owner = ?, owner_pid = ?, owner_host = ? WHERE user_id = ? AND key = ?').run(
    nowIso,
    owner.token,
    owner.pid,
    owner.host,
    userId,
    key,
  );
}

/** Forgets a key `owner` holds (an answer not to keep); false when it no longer holds it. */
export function deleteIdempotencyRecord(db: Database, userId: number, key: string, owner: string): boolean {
  return statement(db, 'DELETE FROM idempotency WHERE user_id = ? AND key = ? AND owner = ? AND status IS NULL').run(userId, key, owner).changes === 1;
}

/** Forgets every key first used before `cutoffIso`. */
export function forgetIdempotencyKeysBefore(db: Database, cutoffIso: string): void {
  statement(db, 'DELETE FROM idempotency WHERE created_at < ?').run(cutoffIso);
}
