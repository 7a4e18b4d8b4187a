// The verified-token cache is bounded (least recently used goes first) and never outlives a revocation.
import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { TokenVerifier } from '../../src/server/http/auth.js';
import { openDataDir } from '../../src/server/index.js';
import { createAccount } from '../../src/server/store/users.js';
import { makeTempDataDir } from '../helpers/server.js';

test('bounded: the least recently used token is looked up again; the others are not', async () => {
  const dataDir = await makeTempDataDir();
  const { db } = openDataDir(dataDir, () => new Date(), { demoAccounts: false });
  try {
    const [a, b, c] = ['A', 'B', 'C'].map((name) => createAccount(db, 'label', name, new Date()).token);
    const verifier = new TokenVerifier(db, { demoTokens: false }, 2);
    expect(verifier.verify(a!)?.user.name).toBe('A');
    expect(verifier.verify(b!)?.user.name).toBe('B');
    expect(verifier.verify(a!)?.user.name).toBe('A'); // A is now the most recently used
    expect(verifier.verify(c!)?.user.name).toBe('C'); // B goes
    // Rows gone without the generation moving (trigger dropped): only a look-up can notice.
    db.exec('DROP TRIGGER tokens_deleted');
    db.prepare('DELETE FROM tokens').run();
    expect(verifier.verify(a!)?.user.name).toBe('A');
    expect(verifier.verify(c!)?.user.name).toBe('C');
    expect(verifier.verify(b!)).toBeUndefined();
  } finally {
    db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a revocation, a changed account or a deleted user empties the cache', async () => {
  const dataDir = await makeTempDataDir();
  const { db } = openDataDir(dataDir, () => new Date(), { demoAccounts: false });
  try {
    const made = createAccount(db, 'label', 'Before', new Date());
    const verifier = new TokenVerifier(db, { demoTokens: false });
    expect(verifier.verify(made.token)?.user.name).toBe('Before');
    db.prepare('UPDATE users SET name = ? WHERE id = ?').run('After', made.userId);
    expect(verifier.verify(made.token)?.user.name).toBe('After');
    db.prepare('DELETE FROM users WHERE id = ?').run(made.userId);
    expect(verifier.verify(made.token)).toBeUndefined();
    expect(verifier.verify('rd_never-issued')).toBeUndefined();
  } finally {
    db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
