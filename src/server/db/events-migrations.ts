// The events component's migrations: the account's event log (store/events.ts).
// Frozen like every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const eventsMigrations: Migration[] = [
  {
    name: "events: the account's event log, written with each change",
    up(db) {
      // Every page a write touches is one more page in the WAL for each change, so the log costs
      // two: the table's last leaf and one index. No AUTOINCREMENT (its counter would be a third):
      // rows are never deleted (no foreign keys either, so nothing cascades), so the next id is
      // always past every id ever given, as with it. The feed of an account reads the table in id
      // order from its cursor, skipping other accounts' events (a long poll at the end of the log
      // reads next to nothing); one release's history goes through the index.
      db.exec(`
        CREATE TABLE events (
          id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL,
          type TEXT NOT NULL,
          release_id INTEGER NOT NULL,
          catalog_number TEXT,
          actor TEXT NOT NULL,   -- EventActor as JSON
          data TEXT NOT NULL,    -- the type's payload as JSON
          created_at TEXT NOT NULL
        );
        CREATE INDEX events_user_release ON events(user_id, release_id, id);
      `);
    },
  },
];
