// The webhooks component's migrations: endpoints, deliveries, attempts (store/webhooks.ts).
// Frozen like every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const webhooksMigrations: Migration[] = [
  {
    name: "webhooks: endpoints, their deliveries and each delivery's attempts",
    up(db) {
      db.exec(`
        CREATE TABLE webhook_endpoints (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          url TEXT NOT NULL,
          description TEXT,
          events TEXT NOT NULL,          -- JSON array of event types, or ["*"]
          enabled INTEGER NOT NULL DEFAULT 1,
          secret TEXT NOT NULL,          -- whsec_<base64>
          previous_secret TEXT,          -- signs too until previous_secret_expires_at
          previous_secret_expires_at TEXT,
          secret_rotated_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX webhook_endpoints_user ON webhook_endpoints(user_id, id);
        CREATE TABLE webhook_deliveries (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
          event_id INTEGER NOT NULL,
          event_type TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending',   -- pending | succeeded | failed
          resend INTEGER NOT NULL DEFAULT 0,
          attempt_count INTEGER NOT NULL DEFAULT 0,
          next_at TEXT,                             -- when the next attempt is due (pending)
          lease_until TEXT,                         -- a process is sending it until then
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE status = 'pending';
        CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
        CREATE TABLE webhook_attempts (
          delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
          attempt INTEGER NOT NULL,
          at TEXT NOT NULL,
          status_code INTEGER,
          error TEXT,
          duration_ms INTEGER NOT NULL,
          PRIMARY KEY (delivery_id, attempt)
        );
      `);
    },
  },
];
