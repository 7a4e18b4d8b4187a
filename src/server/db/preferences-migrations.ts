// The preferences component's migrations (artist preferences, label settings, label artists).
// Frozen like every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const preferencesMigrations: Migration[] = [
  {
    name: 'artist preferences, label settings, label artists',
    up(db) {
      db.exec(`
        CREATE TABLE artist_preferences (
          user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          platforms TEXT NOT NULL,          -- JSON PlatformChoice[], one per platform at most
          updated_at TEXT NOT NULL
        );
        CREATE TABLE label_settings (
          user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          default_p_line_owner TEXT,
          default_c_line_owner TEXT,
          default_genre TEXT,
          default_language TEXT,
          seeded INTEGER NOT NULL DEFAULT 0, -- 1 once the sandbox seed ran: removed seed artists stay removed
          updated_at TEXT NOT NULL
        );
        CREATE TABLE label_artists (
          id INTEGER PRIMARY KEY AUTOINCREMENT, -- a removed artist's id is never reused
          user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          name_folded TEXT NOT NULL,         -- case- and accent-folded name, for search and re-runs
          platforms TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX label_artists_user ON label_artists(user_id, name_folded, id);
      `);
    },
  },
];
