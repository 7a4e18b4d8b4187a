// Sandbox code assignment at submit: a release without a UPC, or a track without an ISRC, gets
// one from the user's own sandbox range, with a correct check digit.
//   UPC:   an EAN-13, the user's 8-digit prefix (GS1 952, the demonstration prefix: never a real
//          product, yet a prefix a release can have) + a 4-digit item number + the check digit.
//   ISRC:  ZZ (a prefix no real registrant holds) + the user's 3-character registrant code
//          + the 2-digit year of assignment + a 5-digit designation.
import type { Database } from 'better-sqlite3';
import { checkIsrc, checkUpc, upcCheckDigit } from '../../codes/index.js';
import { ServiceError } from '../handler.js';
import { getUserRow } from './users.js';
import { statement } from './statements.js';

const UPC_ITEMS = 10_000;
const ISRC_DESIGNATIONS = 100_000;

// Assignment costs the same however many codes came before: a counter row gives the next number,
// and each candidate is one index look-up. The counters never wrap, so a code once handed out is
// never handed out again (not even after its release is deleted), and an exhausted range is said
// at once instead of searched. A candidate someone took by hand is skipped; each such code is
// skipped once, since the counter moves past it for good.

/** The user's UPC counter: the next item number (created at 1). */
function nextUpcItem(db: Database, userId: number): number {
  statement(db, "INSERT OR IGNORE INTO code_counters (user_id, kind, next) VALUES (?, 'upc', 1)").run(userId);
  return (statement(db, "UPDATE code_counters SET next = next + 1 WHERE user_id = ? AND kind = 'upc' RETURNING next - 1 AS n").get(userId) as { n: number }).n;
}

/** The user's ISRC counter for `year`, created after the highest designation already on a track (an index look-up). */
function nextIsrcDesignation(db: Database, userId: number, year: number, stem: string): number {
  const highest = statement(db, 'SELECT MAX(isrc) AS isrc FROM tracks WHERE isrc >= ? AND isrc <= ?').get(`${stem}00000`, `${stem}99999`) as {
    isrc: string | null;
  };
  const start = highest.isrc === null ? 1 : Number(highest.isrc.slice(stem.length)) + 1;
  statement(db, 'INSERT OR IGNORE INTO isrc_counters (user_id, year, next) VALUES (?, ?, ?)').run(userId, year, start);
  return (statement(db, 'UPDATE isrc_counters SET next = next + 1 WHERE user_id = ? AND year = ? RETURNING next - 1 AS n').get(userId, year) as { n: number })
    .n;
}

/** A UPC-A no other release of the user holds. Call inside the submit transaction. */
export function assignUpc(db: Database, userId: number): string {
  const prefix = getUserRow(db, userId).upc_prefix;
  const taken = statement(db, 'SELECT 1 FROM releases WHERE user_id = ? AND upc_gtin14 = ?');
  for (;;) {
    const n = nextUpcItem(db, userId);
    if (n >= UPC_ITEMS) break;
    const data = `${prefix}${String(n).padStart(4, '0')}`;
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
  const stem = `ZZ${registrant}${String(year % 100).padStart(2, '0')}`;
  const onTrack = statement(db, 'SELECT 1 FROM tracks WHERE isrc = ? LIMIT 1');
  for (;;) {
    const n = nextIsrcDesignation(db, userId, year, stem);
    if (n >= ISRC_DESIGNATIONS) break;
    const code = `${stem}${String(n).padStart(5, '0')}`;
    const r = checkIsrc(code, { currentYear: year });
    if (r.valid && !avoid.has(r.normalized!) && !onTrack.get(r.normalized)) return r.normalized!;
  }
  throw new ServiceError(409, 'codes_exhausted', 'this sandbox account has used all of its ISRCs for this year; set them yourself');
}
