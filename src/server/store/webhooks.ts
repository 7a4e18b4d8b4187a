// Webhook endpoints (a URL, the event types it wants, its signing secrets) and their deliveries.
// A delivery row is queued by the event's own transaction (queueDeliveries, called by
// recordEvent), so an event that commits always has its deliveries and one that rolls back none:
// nothing is lost between the change and the dispatcher, whatever process dies when.
// The secrets are stored as they are: only the service signs, and the database file is the
// owner's alone (0600, db/open.ts), as the upload-signing secret and the token hashes are.
import type { Database } from 'better-sqlite3';
import type { WebhookDelivery, WebhookEndpoint } from '../../contract/webhooks.js';
import type { EventType } from '../../contract/events.js';
import type { ServerModule } from '../handler.js';
import { webhooksMigrations } from '../db/webhooks-migrations.js';
import { statement } from './statements.js';

export const webhooksModule: ServerModule = { component: 'webhooks', migrations: webhooksMigrations };

export interface EndpointRow {
  id: number;
  user_id: number;
  url: string;
  description: string | null;
  events: string;
  enabled: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  secret_rotated_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The endpoint as the wire shows it: never its secrets. */
export function toWebhookResource(r: EndpointRow, nowIso: string): WebhookEndpoint {
  const overlap = r.previous_secret !== null && r.previous_secret_expires_at !== null && r.previous_secret_expires_at > nowIso;
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: JSON.parse(r.events) as WebhookEndpoint['events'],
    enabled: r.enabled === 1,
    created_at: r.created_at,
    updated_at: r.updated_at,
    secret_rotated_at: r.secret_rotated_at,
    previous_secret_expires_at: overlap ? r.previous_secret_expires_at : null,
  };
}

export function findEndpoint(db: Database, userId: number, id: number): EndpointRow | undefined {
  return statement(db, 'SELECT * FROM webhook_endpoints WHERE id = ? AND user_id = ?').get(id, userId) as EndpointRow | undefined;
}

export function listEndpoints(db: Database, userId: number): EndpointRow[] {
  return statement(db, 'SELECT * FROM webhook_endpoints WHERE user_id = ? ORDER BY id').all(userId) as EndpointRow[];
}

/** The account's endpoint with this URL (the natural key: one endpoint per URL), if any. */
export function endpointWithUrl(db: Database, userId: number, url: string): EndpointRow | undefined {
  return statement(db, 'SELECT * FROM webhook_endpoints WHERE user_id = ? AND url = ?').get(userId, url) as EndpointRow | undefined;
}

export function countEndpoints(db: Database, userId: number): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE user_id = ?').get(userId) as { n: number }).n;
}

export function insertEndpoint(
  db: Database,
  userId: number,
  e: { url: string; description: string | null; events: readonly string[]; enabled: boolean; secret: string },
  nowIso: string,
): number {
  const info = statement(
    db,
    'INSERT INTO webhook_endpoints (user_id, url, description, events, enabled, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(userId, e.url, e.description, JSON.stringify(e.events), e.enabled ? 1 : 0, e.secret, nowIso, nowIso);
  endpointsChanged(db);
  return Number(info.lastInsertRowid);
}

export function updateEndpoint(
  db: Database,
  id: number,
  e: { url: string; description: string | null; events: readonly string[]; enabled: boolean },
  nowIso: string,
): void {
  statement(db, 'UPDATE webhook_endpoints SET url = ?, description = ?, events = ?, enabled = ?, updated_at = ? WHERE id = ?').run(
    e.url,
    e.description,
    JSON.stringify(e.events),
    e.enabled ? 1 : 0,
    nowIso,
    id,
  );
  endpointsChanged(db);
}

/** A new secret; the current one becomes the previous, signing too until `overlapEndsIso` (now: not at all). */
export function rotateSecret(db: Database, id: number, secret: string, nowIso: string, overlapEndsIso: string): void {
  statement(
    db,
    `UPDATE webhook_endpoints SET previous_secret = CASE WHEN ? > ? THEN secret ELSE NULL END,
       previous_secret_expires_at = CASE WHEN ? > ? THEN ? ELSE NULL END,
       secret = ?, secret_rotated_at = ?, updated_at = ? WHERE id = ?`,
  ).run(overlapEndsIso, nowIso, overlapEndsIso, nowIso, overlapEndsIso, secret, nowIso, nowIso, id);
}

export function deleteEndpoint(db: Database, id: number): void {
  statement(db, 'DELETE FROM webhook_endpoints WHERE id = ?').run(id);
  endpointsChanged(db);
}

/**
 * Whether each account has an enabled endpoint, per database, so that an event of an account
 * without webhooks (most of them) costs no statement but one look at data_version. Known as of
 * `version`, the connection's data_version, which moves when another connection (another process
 * sharing the data directory) commits: then all is forgotten. This connection's own endpoint
 * writes forget it too (endpointsChanged), and nothing is learnt again until the transaction that
 * wrote has ended (a microtask later: transactions are synchronous here), so a write that rolls
 * back never leaves its answer behind. One entry per account that recorded an event.
 */
interface EndpointsKnown {
  version: number;
  accounts: Map<number, boolean>;
  held: boolean;
}

const endpointsKnown = new WeakMap<Database, EndpointsKnown>();

function knownOf(db: Database): EndpointsKnown {
  let known = endpointsKnown.get(db);
  if (!known) {
    known = { version: -1, accounts: new Map(), held: false };
    endpointsKnown.set(db, known);
  }
  return known;
}

/** Every write to webhook_endpoints calls it, inside its transaction. */
function endpointsChanged(db: Database): void {
  const known = knownOf(db);
  known.accounts.clear();
  if (known.held) return;
  known.held = true;
  queueMicrotask(() => {
    known.held = false;
  });
}

/** Whether the account has an enabled endpoint: remembered (endpointsKnown), else one indexed look-up. */
function hasEnabledEndpoint(db: Database, userId: number): boolean {
  const known = knownOf(db);
  const version = (statement(db, 'PRAGMA data_version').get() as { data_version: number }).data_version;
  if (version !== known.version) {
    known.accounts.clear();
    known.version = version;
  }
  let has = known.accounts.get(userId);
  if (has === undefined) {
    has = statement(db, 'SELECT 1 FROM webhook_endpoints WHERE user_id = ? AND enabled = 1 LIMIT 1').get(userId) !== undefined;
    if (!known.held) known.accounts.set(userId, has);
  }
  return has;
}

/**
 * Called by recordEvent inside the event's transaction: one pending delivery per enabled
 * endpoint of the account that wants this type. Returns how many were queued.
 */
export function queueDeliveries(db: Database, e: { eventId: number; userId: number; type: EventType; at: string }): number {
  if (!hasEnabledEndpoint(db, e.userId)) return 0;
  return statement(
    db,
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, next_at, created_at, updated_at)
     SELECT id, ?, ?, ?, ?, ? FROM webhook_endpoints
     WHERE user_id = ? AND enabled = 1 AND EXISTS (SELECT 1 FROM json_each(webhook_endpoints.events) WHERE value IN ('*', ?))`,
  ).run(e.eventId, e.type, e.at, e.at, e.at, e.userId, e.type).changes;
}

/** A resend: a new delivery of an event to one endpoint, due now. */
export function queueResend(db: Database, endpointId: number, eventId: number, type: EventType, nowIso: string): number {
  const info = statement(
    db,
    'INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, resend, next_at, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?)',
  ).run(endpointId, eventId, type, nowIso, nowIso, nowIso);
  return Number(info.lastInsertRowid);
}

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: number;
  event_type: EventType;
  status: WebhookDelivery['status'];
  resend: number;
  attempt_count: number;
  next_at: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

interface AttemptRow {
  delivery_id: number;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

function toDeliveries(db: Database, rows: DeliveryRow[]): WebhookDelivery[] {
  if (rows.length === 0) return [];
  const attempts = statement(db, `SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`).all(
    JSON.stringify(rows.map((r) => r.id)),
  ) as AttemptRow[];
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const a of attempts) (byDelivery.get(a.delivery_id) ?? byDelivery.set(a.delivery_id, []).get(a.delivery_id)!).push(a);
  return rows.map((r) => ({
    id: r.id,
    webhook_id: r.endpoint_id,
    event_id: r.event_id,
    event_type: r.event_type,
    status: r.status,
    resend: r.resend === 1,
    next_attempt_at: r.status === 'pending' ? r.next_at : null,
    created_at: r.created_at,
    attempts: (byDelivery.get(r.id) ?? []).map((a) => ({
      attempt: a.attempt,
      at: a.at,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    })),
  }));
}

export function deliveryById(db: Database, id: number): WebhookDelivery | undefined {
  const row = statement(db, 'SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
  return row ? toDeliveries(db, [row])[0] : undefined;
}

export interface DeliveryFilter {
  eventId?: number | undefined;
  status?: WebhookDelivery['status'] | undefined;
  before?: number | undefined;
}

/** An endpoint's deliveries, newest first, and whether older ones follow. */
export function listDeliveries(db: Database, endpointId: number, f: DeliveryFilter, limit: number): { deliveries: WebhookDelivery[]; hasMore: boolean } {
  const parts = ['endpoint_id = ?'];
  const args: unknown[] = [endpointId];
  if (f.eventId !== undefined) {
    parts.push('event_id = ?');
    args.push(f.eventId);
  }
  if (f.status !== undefined) {
    parts.push('status = ?');
    args.push(f.status);
  }
  if (f.before !== undefined) {
    parts.push('id < ?');
    args.push(f.before);
  }
  const rows = statement(db, `SELECT * FROM webhook_deliveries WHERE ${parts.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...args, limit + 1) as DeliveryRow[];
  return { deliveries: toDeliveries(db, rows.slice(0, limit)), hasMore: rows.length > limit };
}

/** One delivery taken by a process to send, with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  eventId: number;
  /** Attempts made before this one. */
  attemptsMade: number;
  createdAt: string;
  leaseUntil: string;
  endpoint: Pick<EndpointRow, 'id' | 'user_id' | 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>;
}

/**
 * Takes up to `limit` due deliveries for this process until `leaseUntilIso`: a delivery whose
 * lease has not run out is another process's (or an attempt in flight), so two processes sharing
 * the data directory never send the same attempt at once. A process that dies mid-send leaves a
 * lease that runs out, and the delivery is sent again: at least once.
 */
export function claimDue(db: Database, nowIso: string, leaseUntilIso: string, limit: number): ClaimedDelivery[] {
  return db
    .transaction(() => {
      const rows = statement(
        db,
        `SELECT d.id, d.event_id, d.attempt_count, d.created_at, e.id AS endpoint_id, e.user_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) AND e.enabled = 1
         ORDER BY d.next_at, d.id LIMIT ?`,
      ).all(nowIso, nowIso, limit) as (Omit<ClaimedDelivery['endpoint'], 'id'> & {
        id: number;
        event_id: number;
        attempt_count: number;
        created_at: string;
        endpoint_id: number;
      })[];
      const take = statement(db, 'UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?');
      return rows.map((r) => {
        take.run(leaseUntilIso, r.id);
        return {
          id: r.id,
          eventId: r.event_id,
          attemptsMade: r.attempt_count,
          createdAt: r.created_at,
          leaseUntil: leaseUntilIso,
          endpoint: {
            id: r.endpoint_id,
            user_id: r.user_id,
            url: r.url,
            secret: r.secret,
            previous_secret: r.previous_secret,
            previous_secret_expires_at: r.previous_secret_expires_at,
          },
        };
      });
    })
    .immediate();
}

/** Whether any delivery may be due now (a cheap look before claiming in a write transaction). */
export function anyDue(db: Database, nowIso: string): boolean {
  return (
    statement(db, `SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until <= ?) LIMIT 1`).get(
      nowIso,
      nowIso,
    ) !== undefined
  );
}

/** When the next pending delivery falls due (a lease running out counts), or null. */
export function nextDue(db: Database): string | null {
  const row = statement(
    db,
    `SELECT MIN(CASE WHEN lease_until > next_at THEN lease_until ELSE next_at END) AS due FROM webhook_deliveries WHERE status = 'pending'`,
  ).get() as { due: string | null };
  return row.due;
}

/**
 * An attempt's outcome: the attempt is logged and the delivery succeeds, fails for good
 * (`nextAtIso` null), or waits for `nextAtIso`. A delivery no longer pending (another process
 * delivered it meanwhile) keeps its state; the attempt is logged all the same.
 */
export function recordAttempt(
  db: Database,
  deliveryId: number,
  a: { at: string; statusCode: number | null; error: string | null; durationMs: number; succeeded: boolean; nextAtIso: string | null },
): void {
  db.transaction(() => {
    const row = statement(
      db,
      'UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, updated_at = ? WHERE id = ? RETURNING attempt_count, status',
    ).get(a.at, deliveryId) as { attempt_count: number; status: string } | undefined;
    if (!row) return; // the endpoint was deleted meanwhile
    statement(db, 'INSERT OR REPLACE INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)').run(
      deliveryId,
      row.attempt_count,
      a.at,
      a.statusCode,
      a.error,
      a.durationMs,
    );
    if (row.status !== 'pending') return;
    const status = a.succeeded ? 'succeeded' : a.nextAtIso === null ? 'failed' : 'pending';
    statement(db, 'UPDATE webhook_deliveries SET status = ?, next_at = ?, lease_until = NULL WHERE id = ?').run(
      status,
      status === 'pending' ? a.nextAtIso : null,
      deliveryId,
    );
  }).immediate();
}

/** Gives a delivery back (this process stops before its attempt ended): another process may send it at once. */
export function releaseLease(db: Database, deliveryId: number, leaseUntilIso: string): void {
  statement(db, 'UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ? AND lease_until = ?').run(deliveryId, leaseUntilIso);
}

/** The accounts with an enabled endpoint (the dispatcher settles their sandbox reviews when due). */
export function accountsWithEndpoints(db: Database): number[] {
  return (statement(db, 'SELECT DISTINCT user_id FROM webhook_endpoints WHERE enabled = 1').all() as { user_id: number }[]).map((r) => r.user_id);
}
