// The event log (an outbox): one row per change to a release, written by the change's own
// transaction, so a change that commits has exactly one event and one that rolls back none.
// Rows are never updated nor deleted. `id` is the rowid: SQLite takes one writer at a time, so ids
// grow in commit order across every process sharing the file, and are never reused.
import type { Database } from 'better-sqlite3';
import type { EventActor, EventData, EventResource, EventType } from '../../contract/events.js';
import type { ServerModule } from '../handler.js';
import { eventsMigrations } from '../db/events-migrations.js';
import { eventRecorded } from '../events/bus.js';
import { statement } from './statements.js';
import { queueDeliveries } from './webhooks.js';
import { deliveriesQueued } from '../webhooks/wake.js';

export const eventsModule: ServerModule = { component: 'events', migrations: eventsMigrations };

/** Who made a change: a request's user, or the service itself (the sandbox's auto-review). */
export type Actor = { kind: 'user'; userId: number; name: string; requestId: string | null } | { kind: 'system'; name: string };

export type UserActor = Extract<Actor, { kind: 'user' }>;

export const userActor = (user: { id: number; name: string }, requestId: string | null): UserActor => ({
  kind: 'user',
  userId: user.id,
  name: user.name,
  requestId,
});

/** The sandbox's auto-review: the service acting as the review team. */
export const autoReviewActor: Actor = { kind: 'system', name: 'sandbox auto-review' };

/** One event to record; `data` typed by `type`. */
export type NewEvent = {
  [T in EventType]: { type: T; userId: number; releaseId: number; catalogNumber: string | null; actor: Actor; at: string; data: EventData<T> };
}[EventType];

function actorOnWire(a: Actor): EventActor {
  return a.kind === 'user'
    ? { kind: 'user', user_id: a.userId, name: a.name, request_id: a.requestId }
    : { kind: 'system', user_id: null, name: a.name, request_id: null };
}

/** Records an event. Call it inside the transaction that makes the change. */
export function recordEvent(db: Database, e: NewEvent): void {
  const info = statement(db, 'INSERT INTO events (user_id, type, release_id, catalog_number, actor, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    e.userId,
    e.type,
    e.releaseId,
    e.catalogNumber,
    JSON.stringify(actorOnWire(e.actor)),
    JSON.stringify(e.data),
    e.at,
  );
  eventRecorded(db, e.userId);
  // The webhook deliveries of the event, in its transaction: committed together or not at all.
  if (queueDeliveries(db, { eventId: Number(info.lastInsertRowid), userId: e.userId, type: e.type, at: e.at }) > 0) deliveriesQueued(db);
}

/** A user's name, for changes made without a request's user at hand (a signed upload). */
export function userName(db: Database, userId: number): string {
  return (statement(db, 'SELECT name FROM users WHERE id = ?').get(userId) as { name: string } | undefined)?.name ?? '';
}

/** A release's catalog number, for an event of a write that did not read the release (an upload). */
export function releaseCatalogNumber(db: Database, releaseId: number): string | null {
  const row = statement(db, "SELECT json_extract(data, '$.catalog_number') AS c FROM releases WHERE id = ?").get(releaseId) as { c: string | null } | undefined;
  return row?.c ?? null;
}

interface EventRow {
  id: number;
  user_id: number;
  type: EventType;
  release_id: number;
  catalog_number: string | null;
  actor: string;
  data: string;
  created_at: string;
}

export interface EventFilter {
  type?: EventType | undefined;
  releaseId?: number | undefined;
}

function toResource(r: EventRow): EventResource {
  // Written by recordEvent from the same types: the row's type names its payload's.
  return {
    id: r.id,
    type: r.type,
    created_at: r.created_at,
    account_id: r.user_id,
    release_id: r.release_id,
    catalog_number: r.catalog_number,
    actor: JSON.parse(r.actor),
    data: JSON.parse(r.data),
  };
}

/**
 * The table and the condition for a filter. Without a release, the table in id order from the
 * cursor (NOT INDEXED: the index would have SQLite read every event of the account and sort them);
 * with one, the index (account, release, id).
 */
function where(userId: number, f: EventFilter): { from: string; sql: string; args: unknown[] } {
  const parts = ['user_id = ?'];
  const args: unknown[] = [userId];
  if (f.type !== undefined) {
    parts.push('type = ?');
    args.push(f.type);
  }
  if (f.releaseId !== undefined) {
    parts.push('release_id = ?');
    args.push(f.releaseId);
  }
  return { from: f.releaseId === undefined ? 'events NOT INDEXED' : 'events', sql: parts.join(' AND '), args };
}

/** Up to `limit` of the user's events after `after`, oldest first, and whether more follow. */
export function eventsAfter(db: Database, userId: number, f: EventFilter, after: number, limit: number): { events: EventResource[]; hasMore: boolean } {
  const w = where(userId, f);
  const rows = statement(db, `SELECT * FROM ${w.from} WHERE ${w.sql} AND id > ? ORDER BY id LIMIT ?`).all(...w.args, after, limit + 1) as EventRow[];
  return { events: rows.slice(0, limit).map(toResource), hasMore: rows.length > limit };
}

/** One of the user's events (a webhook delivery's or a resend's), or undefined. */
export function eventById(db: Database, userId: number, id: number): EventResource | undefined {
  const row = statement(db, 'SELECT * FROM events WHERE id = ? AND user_id = ?').get(id, userId) as EventRow | undefined;
  return row ? toResource(row) : undefined;
}

/** The user's newest `last` events, oldest first. */
export function lastEvents(db: Database, userId: number, f: EventFilter, last: number): EventResource[] {
  const w = where(userId, f);
  const rows = statement(db, `SELECT * FROM ${w.from} WHERE ${w.sql} ORDER BY id DESC LIMIT ?`).all(...w.args, last) as EventRow[];
  return rows.reverse().map(toResource);
}
