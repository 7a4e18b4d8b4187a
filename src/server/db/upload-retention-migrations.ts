// The upload_retention component's migrations: indexes for the retention look-ups of store/uploads.ts.
// Frozen like every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const uploadRetentionMigrations: Migration[] = [
  {
    name: 'indexes: tracks by file, uploads by account and state',
    up(db) {
      db.exec(`
        CREATE INDEX IF NOT EXISTS tracks_file_key ON tracks(file_key);
        CREATE INDEX IF NOT EXISTS uploads_user_state ON uploads(user_id, state);
        CREATE INDEX IF NOT EXISTS uploads_state_uploaded ON uploads(state, uploaded_at);
      `);
    },
  },
];
