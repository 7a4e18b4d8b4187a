// The artwork component's migrations: uploads that are cover images, with the facts read from
// their bytes, and the look-up from a release's cover to its upload (retention must not remove it).
// Frozen like every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const artworkMigrations: Migration[] = [
  {
    name: 'uploads: kind (audio or image) and the image facts; releases by cover upload',
    up(db) {
      db.exec(`
        ALTER TABLE uploads ADD COLUMN kind TEXT NOT NULL DEFAULT 'audio' CHECK (kind IN ('audio', 'image'));
        ALTER TABLE uploads ADD COLUMN image TEXT;   -- JSON: format, width, height, color_space, bit_depth, icc_profile, progressive
        CREATE INDEX IF NOT EXISTS releases_artwork_key ON releases(json_extract(data, '$.artwork.file_key'));
      `);
    },
  },
];
