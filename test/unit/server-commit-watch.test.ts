// CommitWatch (src/server/db/commit-watch.ts): a memoised read runs again after any commit, by
// any connection, and not otherwise.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { CommitWatch } from '../../src/server/db/commit-watch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(file: string, wal = true): Database.Database {
  const db = new Database(file);
  if (wal) db.pragma('journal_mode = WAL');
  return db;
}

test('a memoised read runs again after a commit of any connection, and only then', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reldist-commit-watch-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite');
  const db = open(file);
  db.exec('CREATE TABLE g (n INTEGER); INSERT INTO g VALUES (1)');
  const watch = new CommitWatch(db);
  let reads = 0;
  const read = watch.memo(() => {
    reads++;
    return (db.prepare('SELECT n FROM g').get() as { n: number }).n;
  });
  expect([read(), read(), read()]).toEqual([1, 1, 1]);
  expect(reads).toBe(1);
  const other = open(file);
  other.prepare('UPDATE g SET n = 2').run();
  expect(read()).toBe(2);
  other.prepare('UPDATE g SET n = 3').run();
  other.pragma('wal_checkpoint(TRUNCATE)');
  expect(read()).toBe(3);
  expect(read()).toBe(3);
  expect(reads).toBe(3);
  db.prepare('UPDATE g SET n = 4').run();
  expect(read()).toBe(4);
  other.close();
  watch.close();
  // Closed: every look runs the read.
  expect([read(), read()]).toEqual([4, 4]);
  expect(reads).toBe(6);
  db.close();
});

test('without WAL every look runs the read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reldist-commit-watch-'));
  dirs.push(dir);
  const db = open(join(dir, 'db.sqlite'), false);
  const watch = new CommitWatch(db);
  let reads = 0;
  const read = watch.memo(() => ++reads);
  expect([read(), read()]).toEqual([1, 2]);
  watch.close();
  db.close();
});
