// Sandbox code assignment costs the same after 100,000 codes as after 10: the next code comes from
// a counter row and each candidate is one index look-up (no scan, and no search of a used-up range).
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDataDir } from '../../src/server/index.js';
import { checkUpc } from '../../src/codes/index.js';
import { assignIsrc, assignUpc } from '../../src/server/store/codes.js';
import { getUserRow } from '../../src/server/store/users.js';
import { makeTempDataDir } from '../helpers/server.js';

let dataDir: string;
let db: Database;
let userId: number;
const now = new Date('2026-11-25T10:00:00Z');
const YEAR = 2026;

beforeEach(async () => {
  dataDir = await makeTempDataDir();
  const opened = openDataDir(dataDir, () => now);
  db = opened.db;
  userId = (db.prepare("SELECT id FROM users WHERE email = 'label@sandbox.reldist.invalid'").get() as { id: number }).id;
});
afterEach(async () => {
  db.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** `count` tracks already holding the user's ISRCs of YEAR, designations 1..count (as if assigned). */
function seedIsrcs(count: number): void {
  const stem = `ZZ${getUserRow(db, userId).isrc_registrant}${YEAR % 100}`;
  const release = Number(
    db
      .prepare(`INSERT INTO releases (user_id, status, type, title, data, created_at, updated_at)
    VALUES (?, 'draft', 'album', 'Seeded', '{"artists":[]}', 'x', 'x')`)
      .run(userId).lastInsertRowid,
  );
  const insert = db.prepare("INSERT INTO tracks (release_id, disc, position, isrc, data, created_at, updated_at) VALUES (?, 1, ?, ?, '{}', 'x', 'x')");
  db.transaction(() => {
    for (let n = 1; n <= count; n++) insert.run(release, n, `${stem}${String(n).padStart(5, '0')}`);
  })();
}

const isrcCounter = () => (db.prepare('SELECT next FROM isrc_counters WHERE user_id = ? AND year = ?').get(userId, YEAR) as { next: number } | undefined)?.next;

/** What assignment runs: every statement must find its rows through an index. */
function assertIndexed(): void {
  const plans = [
    ['SELECT MAX(isrc) AS isrc FROM tracks WHERE isrc >= ? AND isrc <= ?', 'a', 'b'],
    ['SELECT 1 FROM tracks WHERE isrc = ? LIMIT 1', 'a'],
    ['SELECT 1 FROM releases WHERE user_id = ? AND upc_gtin14 = ?', 1, 'a'],
    ['UPDATE isrc_counters SET next = next + 1 WHERE user_id = ? AND year = ? RETURNING next - 1 AS n', 1, 2026],
    ["UPDATE code_counters SET next = next + 1 WHERE user_id = ? AND kind = 'upc' RETURNING next - 1 AS n", 1],
  ] as const;
  for (const [sql, ...args] of plans) {
    const detail = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(detail, sql).not.toMatch(/\bSCAN\b/);
  }
}

test('an ISRC after 99,990 assigned ones is the next designation, found with one look-up', () => {
  seedIsrcs(99_990);
  assertIndexed();
  // The counter starts after the highest designation in use (one index look-up), and moves by one: one candidate tried.
  expect(db.transaction(() => assignIsrc(db, userId, YEAR, new Set()))()).toMatch(/99991$/);
  expect(isrcCounter()).toBe(99_992);
  expect(db.transaction(() => assignIsrc(db, userId, YEAR, new Set()))()).toMatch(/99992$/);
  expect(isrcCounter()).toBe(99_993);
});

test('the same after 10', () => {
  seedIsrcs(10);
  expect(db.transaction(() => assignIsrc(db, userId, YEAR, new Set()))()).toMatch(/00011$/);
  expect(isrcCounter()).toBe(12);
});

test('a used-up range is refused at once, without searching it', () => {
  seedIsrcs(10);
  db.prepare('INSERT INTO isrc_counters (user_id, year, next) VALUES (?, ?, 100000)').run(userId, YEAR);
  expect(() => db.transaction(() => assignIsrc(db, userId, YEAR, new Set()))()).toThrow(/used all of its ISRCs/);
  expect(isrcCounter()).toBe(100_000); // the refusal rolls its transaction back
  db.prepare("INSERT INTO code_counters (user_id, kind, next) VALUES (?, 'upc', 10000)").run(userId);
  expect(() => db.transaction(() => assignUpc(db, userId))()).toThrow(/used all of its UPCs/);
});

test('a code someone typed by hand is skipped once, and the counter moves past it for good', () => {
  const prefix = getUserRow(db, userId).upc_prefix;
  const first = db.transaction(() => assignUpc(db, userId))();
  expect(first.startsWith(`${prefix}0001`)).toBe(true);
  // A prefix a release can have: `validate upc` gives it no warning (GS1 02 would be restricted circulation).
  expect(checkUpc(first)).toMatchObject({ valid: true, kind: 'ean-13', problems: [] });
  // Item 2 taken by hand on a release: the next assignment skips it.
  const taken = `${prefix}0002`;
  // The 12 data digits of an EAN-13 weigh 1, 3, 1, 3… from the left.
  const check = (d: string) => (10 - ([...d].reduce((s, c, i) => s + Number(c) * (i % 2 === 0 ? 1 : 3), 0) % 10)) % 10;
  const code = `${taken}${check(taken)}`;
  db.prepare(`INSERT INTO releases (user_id, status, type, title, upc, upc_gtin14, data, created_at, updated_at)
    VALUES (?, 'draft', 'single', 'By hand', ?, ?, '{"artists":[]}', 'x', 'x')`).run(userId, code, `0${code}`);
  expect(
    db
      .transaction(() => assignUpc(db, userId))()
      .startsWith(`${prefix}0003`),
  ).toBe(true);
});

test("a data directory from before moves its users' UPC prefixes off GS1 02, once", () => {
  const version = (db.prepare("SELECT version FROM schema_version WHERE component = 'core'").get() as { version: number }).version;
  // As the previous version left it: the prefix '2' + 6 digits of the user id.
  db.prepare('UPDATE users SET upc_prefix = ? WHERE id = ?').run(`2${String(userId).padStart(6, '0')}`, userId);
  db.prepare("UPDATE schema_version SET version = ? WHERE component = 'core'").run(version - 1);
  db.close();
  db = openDataDir(dataDir, () => now).db;
  expect(getUserRow(db, userId).upc_prefix).toBe(`952${String(userId).padStart(5, '0')}`);
  expect(checkUpc(db.transaction(() => assignUpc(db, userId))()).problems).toEqual([]);
});
