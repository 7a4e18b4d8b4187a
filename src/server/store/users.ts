// Users and their bearer tokens. Tokens are stored only as sha256 hashes; the sandbox tokens are
// written once to a 0600 file in the data directory so the CLI's embedded sandbox can read them.
import type { Database } from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthUser, UserKind } from '../handler.js';
import { statement } from './statements.js';

export const TOKENS_FILE = 'sandbox-tokens.json';

export interface SandboxTokens {
  label: string;
  artist: string;
}

export interface SandboxSeed {
  tokens: SandboxTokens;
  userIds: { label: number; artist: number };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newToken(): string {
  return `rd_${randomBytes(24).toString('base64url')}`;
}

export interface UserRow {
  id: number;
  kind: UserKind;
  name: string;
  email: string;
  label_name: string | null;
  artist_name: string | null;
  country: string | null;
  upc_prefix: string;
  isrc_registrant: string;
  created_at: string;
}

/** The account of the token with this hash; with `demoTokens: false`, the demo accounts' tokens are refused. */
export function findUserByTokenHash(db: Database, hash: string, options: { demoTokens: boolean } = { demoTokens: true }): AuthUser | undefined {
  return statement(
    db,
    "SELECT u.id, u.kind, u.name, u.email FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ? AND (? OR t.label != 'sandbox')",
  ).get(hash, options.demoTokens ? 1 : 0) as AuthUser | undefined;
}

/** Moves whenever a token is revoked or changed, or an account changed (triggers; see db/migrations.ts). */
export function tokenGeneration(db: Database): number {
  return (statement(db, 'SELECT n FROM token_generation').get() as { n: number }).n;
}

export interface CreatedAccount {
  userId: number;
  token: string;
}

/**
 * A team member's account and its first token (`reldist serve token create`): a new user of the
 * given kind, named `name`. The token is returned once; only its hash is kept.
 */
export function createAccount(db: Database, kind: UserKind, name: string, now: Date): CreatedAccount {
  return db
    .transaction((): CreatedAccount => {
      const id = (statement(db, 'SELECT COALESCE(MAX(id), 0) + 1 AS n FROM users').get() as { n: number }).n;
      const email = `user-${id}@accounts.reldist.invalid`;
      statement(
        db,
        `INSERT INTO users (id, kind, name, email, label_name, artist_name, country, upc_prefix, isrc_registrant, created_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
      ).run(id, kind, name, email, kind === 'label' ? name : null, kind === 'artist' ? name : null, upcPrefixFor(id), isrcRegistrantFor(id), now.toISOString());
      const token = newToken();
      statement(db, "INSERT INTO tokens (hash, user_id, label, created_at) VALUES (?, ?, 'account', ?)").run(hashToken(token), id, now.toISOString());
      return { userId: id, token };
    })
    .immediate();
}

export function getUserRow(db: Database, id: number): UserRow {
  const row = statement(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  if (!row) throw new Error(`user ${id} vanished`);
  return row;
}

const SEED_USERS: { kind: UserKind; name: string; email: string; label_name: string | null; artist_name: string | null }[] = [
  { kind: 'label', name: 'Sandbox Label Manager', email: 'label@sandbox.reldist.invalid', label_name: 'Sandbox Records', artist_name: null },
  { kind: 'artist', name: 'Sandbox Artist', email: 'artist@sandbox.reldist.invalid', label_name: null, artist_name: 'Sandbox Artist' },
];

/**
 * Creates the sandbox label and artist accounts and their tokens, once per data directory.
 * Runs in an IMMEDIATE transaction and writes the tokens file before committing, so a second
 * process opening the same directory at the same moment waits and then reuses the file.
 */
export function seedSandboxUsers(db: Database, dataDir: string, now: Date): SandboxSeed {
  const file = join(dataDir, TOKENS_FILE);
  return db
    .transaction((): SandboxSeed => {
      const ids: Record<UserKind, number> = { label: 0, artist: 0 };
      for (const u of SEED_USERS) {
        const existing = statement(db, 'SELECT id FROM users WHERE email = ?').get(u.email) as { id: number } | undefined;
        if (existing) {
          ids[u.kind] = existing.id;
          continue;
        }
        const next = (statement(db, 'SELECT COALESCE(MAX(id), 0) + 1 AS n FROM users').get() as { n: number }).n;
        const info = statement(
          db,
          `INSERT INTO users (id, kind, name, email, label_name, artist_name, country, upc_prefix, isrc_registrant, created_at)
           VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        ).run(next, u.kind, u.name, u.email, u.label_name, u.artist_name, upcPrefixFor(next), isrcRegistrantFor(next), now.toISOString());
        ids[u.kind] = Number(info.lastInsertRowid);
      }

      const saved = readTokensFile(file);
      if (saved && tokenBelongs(db, saved.label, ids.label) && tokenBelongs(db, saved.artist, ids.artist)) {
        return { tokens: saved, userIds: ids };
      }

      // No usable file (first start, or it was deleted): issue fresh tokens, retire the old ones.
      const tokens: SandboxTokens = { label: newToken(), artist: newToken() };
      statement(db, "DELETE FROM tokens WHERE label = 'sandbox' AND user_id IN (?, ?)").run(ids.label, ids.artist);
      const insert = statement(db, "INSERT INTO tokens (hash, user_id, label, created_at) VALUES (?, ?, 'sandbox', ?)");
      insert.run(hashToken(tokens.label), ids.label, now.toISOString());
      insert.run(hashToken(tokens.artist), ids.artist, now.toISOString());
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
      renameSync(tmp, file);
      return { tokens, userIds: ids };
    })
    .immediate();
}

function tokenBelongs(db: Database, token: string, userId: number): boolean {
  const row = statement(db, 'SELECT user_id FROM tokens WHERE hash = ?').get(hashToken(token)) as { user_id: number } | undefined;
  return row?.user_id === userId;
}

function readTokensFile(file: string): SandboxTokens | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxTokens>;
    if (typeof parsed.label === 'string' && typeof parsed.artist === 'string') return { label: parsed.label, artist: parsed.artist };
  } catch {
    // A damaged file is replaced by fresh tokens below.
  }
  return undefined;
}

/**
 * GS1 prefix 952 is reserved for demonstrations and examples of the GS1 system: no real product
 * carries it, yet it is an ordinary prefix a release code can have (`validate upc` gives no
 * warning, unlike 02, restricted circulation). The codes are EAN-13: 952, 5 digits of the user,
 * 4 for the item and 1 check digit.
 */
export function upcPrefixFor(userId: number): string {
  return `952${String(userId % 100_000).padStart(5, '0')}`;
}

export function isrcRegistrantFor(userId: number): string {
  return (userId % 46_656).toString(36).toUpperCase().padStart(3, '0');
}
