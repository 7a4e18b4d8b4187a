// Takes a data directory's database back to the core schema of an older version, for migration
// tests: what the migrations after it added is dropped, then the version row says so.
import type { Database } from 'better-sqlite3';

/** Objects added by core migrations 4 and later (filters, counts, search, tokens' generation, ISRC counters, key owners). */
const ADDED_AFTER_3 = `
  DROP TRIGGER release_counts_insert; DROP TRIGGER release_counts_delete; DROP TRIGGER release_counts_update;
  DROP TRIGGER releases_search_insert; DROP TRIGGER releases_search_delete; DROP TRIGGER releases_search_update;
  DROP TRIGGER release_code_suffixes_insert; DROP TRIGGER release_code_suffixes_delete; DROP TRIGGER release_code_suffixes_update;
  DROP TRIGGER tokens_deleted; DROP TRIGGER tokens_updated; DROP TRIGGER users_deleted; DROP TRIGGER users_updated;
  DROP TABLE release_counts; DROP TABLE releases_search; DROP TABLE release_code_suffixes; DROP TABLE code_positions; DROP TABLE token_generation; DROP TABLE isrc_counters;
  DROP INDEX releases_user_status; DROP INDEX releases_user_type; DROP INDEX releases_review_due;
  ALTER TABLE idempotency DROP COLUMN owner; ALTER TABLE idempotency DROP COLUMN owner_pid; ALTER TABLE idempotency DROP COLUMN owner_host;
`;

/** The core schema as core migration 3 left it. */
export function downgradeToCoreVersion3(db: Database): void {
  db.exec(`${ADDED_AFTER_3} UPDATE schema_version SET version = 3 WHERE component = 'core';`);
}

/** The core schema as core migration 2 left it (before catalog numbers had a key). */
export function downgradeToCoreVersion2(db: Database): void {
  downgradeToCoreVersion3(db);
  db.exec(`DROP INDEX releases_user_catalog; ALTER TABLE releases DROP COLUMN catalog_key;
           UPDATE schema_version SET version = 2 WHERE component = 'core';`);
}
