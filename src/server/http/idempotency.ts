// Idempotency-Key for every mutation (POST, PUT, PATCH, DELETE): the first response for (user, key)
// is stored with a hash of method + path + body; a retry with the same request replays it, a
// different request under the same key is refused. Stored only for responses below 500 and other
// than 429, so such a failure can be retried for real.
//
// A key's answer and its write are one: the answer is saved in the same transaction as the write
// it answers (app.ts runs a synchronous handler and `recordAnswer` in one transaction; an async
// handler writes through RequestInput.commit, which does the same), and a refusal saves its
// answer only once its transaction has rolled back. So a key found "in progress" means nothing
// of its request was committed, and taking it over never repeats committed work.
//
// Taking over: the row names the request that holds the key (a token of its own) and its process
// (pid, host). A key whose holder is provably gone is taken over at once: a process of this host
// that no longer exists (the embedded sandbox runs one short-lived service per CLI command; a
// standing `serve` restarted after a crash), or a request of this process that is no longer in
// flight. What cannot be proven (another host, an old row, a pid reused) waits IDEMPOTENCY_STALE_MS.
// Either way the answer is saved only while its request still holds the key, in the transaction
// of its write: a slow request whose key was taken over meanwhile rolls its write back.
import type { Database } from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { idempotencyKeyPattern } from '../../contract/routes.js';
import { ServiceError } from '../handler.js';
import {
  deleteIdempotencyRecord,
  findIdempotencyRecord,
  insertIdempotencyRecord,
  saveIdempotentResponse,
  takeOverIdempotencyRecord,
  type IdempotencyRecord,
  type KeyOwner,
} from '../store/idempotency.js';

/** A key this request holds: what it answers under, once its work is done. */
export interface KeyClaim {
  userId: number;
  key: string;
  owner: KeyOwner;
}

export type IdempotencyStart = { kind: 'new'; claim: KeyClaim } | { kind: 'replay'; status: number; body: string };

/**
 * No catalog request runs this long; a key in progress for longer, whose holder could not be
 * proven gone, was left by a crashed process (or one on another host).
 */
export const IDEMPOTENCY_STALE_MS = 30_000;

/** Seconds a request refused with 409 idempotency_in_progress is told to wait (Retry-After). */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/** The tokens of the requests of this process that hold a key now. */
const inFlight = new Set<string>();
const thisHost = hostname();

export function requestHash(method: string, path: string, body: Uint8Array): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('hex');
}

/** Whether the request holding this key can be shown not to run any more. */
export function holderIsGone(row: Pick<IdempotencyRecord, 'owner' | 'owner_pid' | 'owner_host'>): boolean {
  if (row.owner === null || row.owner_pid === null || row.owner_host !== thisHost) return false;
  if (row.owner_pid === process.pid) return !inFlight.has(row.owner);
  try {
    process.kill(row.owner_pid, 0);
    return false;
  } catch (e) {
    // EPERM: a process of another account has the pid: alive, as far as can be told.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const inProgress = () =>
  new ServiceError(409, 'idempotency_in_progress', 'a request with this Idempotency-Key is still running; retry shortly', {
    headers: { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
  });

export function beginIdempotent(db: Database, userId: number, key: string, hash: string, now: Date): IdempotencyStart {
  const nowIso = now.toISOString();
  if (!idempotencyKeyPattern.test(key)) {
    throw new ServiceError(400, 'bad_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const owner: KeyOwner = { token: randomBytes(12).toString('base64url'), pid: process.pid, host: thisHost };
  const started = db
    .transaction((): IdempotencyStart => {
      const row = findIdempotencyRecord(db, userId, key);
      if (!row) {
        insertIdempotencyRecord(db, userId, key, hash, nowIso, owner);
        return { kind: 'new', claim: { userId, key, owner } };
      }
      if (row.request_hash !== hash) {
        throw new ServiceError(422, 'idempotency_key_reused', 'this Idempotency-Key was already used for a different request; use a new key for a new request');
      }
      if (row.status !== null) return { kind: 'replay', status: row.status, body: row.body ?? '' };
      if (holderIsGone(row) || Date.parse(row.created_at) <= now.getTime() - IDEMPOTENCY_STALE_MS) {
        takeOverIdempotencyRecord(db, userId, key, nowIso, owner);
        return { kind: 'new', claim: { userId, key, owner } };
      }
      throw inProgress();
    })
    .immediate();
  if (started.kind === 'new') inFlight.add(owner.token);
  return started;
}

/** Thrown inside a write's transaction when its request no longer holds the key: rolls the write back. */
export class KeyTakenOver extends Error {
  constructor() {
    super('the Idempotency-Key was taken over by a later request');
    this.name = 'KeyTakenOver';
  }
}

/**
 * Saves the answer of a request that holds the key, inside the transaction of the write it
 * answers (or, for a refusal, after its transaction rolled back). A 5xx or 429 is not an answer
 * to keep: the key is forgotten, so the same key may try again for real. Throws KeyTakenOver when
 * the request no longer holds the key, which rolls back the transaction it is called in.
 */
export function recordAnswer(db: Database, claim: KeyClaim, status: number, body: string): void {
  const kept =
    status >= 500 || status === 429
      ? deleteIdempotencyRecord(db, claim.userId, claim.key, claim.owner.token)
      : saveIdempotentResponse(db, claim.userId, claim.key, claim.owner.token, status, body);
  if (!kept) throw new KeyTakenOver();
}

/** The request is over (answered or failed): its key, if still in progress, is free to take over. */
export function releaseClaim(claim: KeyClaim): void {
  inFlight.delete(claim.owner.token);
}

/**
 * What a request whose key was taken over answers: the answer of the request that took it, when
 * there is one by now, else 409 in progress (the other request still runs).
 */
export function answerOfTakenKey(db: Database, claim: KeyClaim): { status: number; body: string } {
  const row = findIdempotencyRecord(db, claim.userId, claim.key);
  if (row?.status == null) throw inProgress();
  return { status: row.status, body: row.body ?? '' };
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
