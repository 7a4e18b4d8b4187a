// Sandbox code assignment at submit: a release without a UPC, or a track without an ISRC, gets
// one from the user's own sandbox range, with a correct check digit.
//   UPC-A: the user's 7-digit prefix (number system 2: restricted circulation, never a real
//          product) + a 4-digit item number + the check digit.
//   ISRC:  ZZ (a prefix no real registrant holds) + the user's 3-character registrant code
//          + the 2-digit year of assignment + a 5-digit designation.
import type { Database } from 'better-sqlite3';
import { checkIsrc, checkUpc, upcCheckDigit } from '../../codes/index.js';
import { ServiceError } from '../handler.js';
import { getUserRow } from './users.js';
import { statement } from './statements.js';

const UPC_ITEMS = 10_000;
const ISRC_DESIGNATIONS = 100_000;

function nextCounter(db: Database, userId: number, kind: 'upc' | 'isrc'): number {
  statement(db, 'INSERT OR IGNORE INTO code_counters (user_id, kind, next) VALUES (?, ?, 1)').run(userId, kind);
  const row = statement(db, 'SELECT next FROM code_counters WHERE user_id = ? AND kind = ?').get(userId, kind) as { next: number };
  statement(db, 'UPDATE code_counters SET next = next + 1 WHERE user_id = ? AND kind = ?').run(userId, kind);
  return row.next;
}

/** A UPC-A no other release of the user holds. Call inside the submit transaction. */
export function assignUpc(db: Database, userId: number): string {
  const prefix = getUserRow(db, userId).upc_prefix;
  const taken = statement(db, 'SELECT 1 FROM releases WHERE user_id = ? AND upc_gtin14 = ?');
  // Bounded: at most one pass over the user's whole range.
  for (let tries = 0; tries < UPC_ITEMS; tries++) {
    const n = nextCounter(db, userId, 'upc');
    const data = `${prefix}${String(n % UPC_ITEMS).padStart(4, '0')}`;
    const code = `${data}${upcCheckDigit(data)}`;
    const r = checkUpc(code);
    if (r.valid && !taken.get(userId, r.gtin14)) return r.normalized!;
  }
  throw new ServiceError(409, 'codes_exhausted', 'this sandbox account has used all of its UPCs; set one yourself');
}

/**
 * An ISRC on no track yet (a code someone typed by hand names another recording) and not in
 * `avoid` (the release's other codes). Call inside the submit transaction.
 */
export function assignIsrc(db: Database, userId: number, year: number, avoid: ReadonlySet<string>): string {
  const registrant = getUserRow(db, userId).isrc_registrant;
  const yy = String(year % 100).padStart(2, '0');
  const onTrack = statement(db, 'SELECT 1 FROM tracks WHERE isrc = ? LIMIT 1');
  for (let tries = 0; tries < ISRC_DESIGNATIONS; tries++) {
    const n = nextCounter(db, userId, 'isrc') % ISRC_DESIGNATIONS;
    const code = `ZZ${registrant}${yy}${String(n).padStart(5, '0')}`;
    const r = checkIsrc(code, { currentYear: year });
    if (r.valid && !avoid.has(r.normalized!) && !onTrack.get(r.normalized)) return r.normalized!;
  }
  throw new ServiceError(409, 'codes_exhausted', 'this sandbox account has used all of its ISRCs for this year; set them yourself');
}
