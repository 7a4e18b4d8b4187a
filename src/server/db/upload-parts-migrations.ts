// The upload_parts component's migrations: uploads sent in parts (uploads/parts.ts). Frozen like
// every migration file: no live code imported (see migrations.ts).
import type { Migration } from '../handler.js';

export const uploadPartsMigrations: Migration[] = [
  {
    name: 'uploads in parts: part size, last activity, the digest the address was signed with; the parts held',
    up(db) {
      db.exec(`
        ALTER TABLE uploads ADD COLUMN part_size INTEGER;        -- null: one PUT of the whole file
        ALTER TABLE uploads ADD COLUMN active_at TEXT;           -- an upload in parts: when its last part arrived (or it was asked for)
        ALTER TABLE uploads ADD COLUMN signed_sha256 TEXT;       -- the digest its addresses are signed with ('' for none); null: as sha256
        CREATE TABLE upload_parts (
          upload_key TEXT NOT NULL REFERENCES uploads(key) ON DELETE CASCADE,
          part INTEGER NOT NULL,
          size INTEGER NOT NULL,
          checksum TEXT NOT NULL,               -- as the part's Upload-Checksum header had it: 'crc32 <base64>' or 'sha256 <base64>'
          received_at TEXT NOT NULL,
          PRIMARY KEY (upload_key, part)
        ) WITHOUT ROWID;
        CREATE INDEX uploads_parts_active ON uploads(active_at) WHERE part_size IS NOT NULL;
      `);
    },
  },
];
