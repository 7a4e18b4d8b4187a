// What a request must know about writes since the last one, read in one statement: a statement's
// fixed cost (a read lock, a WAL-index check) is most of what reading one small row costs.
import type { Database } from 'better-sqlite3';
import { statement } from './statements.js';

/** Who has written to the database: enough to tell "nothing changed" without reading what. */
export interface Writes {
  /** SQLite's data_version: moves when another connection, in this process or another, commits. */
  dataVersion: number;
  /** This connection's own rows changed (total_changes()), which data_version does not count. */
  ownChanges: number;
}

export interface DatabaseState extends Writes {
  /** Moves whenever a token is revoked or changed, or an account changed (triggers; see db/migrations.ts). */
  tokenGeneration: number;
}

export function databaseState(db: Database): DatabaseState {
  return statement(
    db,
    `SELECT n AS tokenGeneration, (SELECT data_version FROM pragma_data_version) AS dataVersion, total_changes() AS ownChanges
     FROM token_generation`,
  ).get() as DatabaseState;
}

/** True when nobody wrote between the two reads. */
export function sameWrites(a: Writes, b: Writes): boolean {
  return a.dataVersion === b.dataVersion && a.ownChanges === b.ownChanges;
}
