// A second label account in a running test service's data directory, so tests can check that one
// label never sees another's artists. The service has no sign-up endpoint; the account is added
// to its database the way the sandbox seeds its own (hashed token, same columns).
import { openDatabase } from '../../src/server/db/open.js';
import { hashToken, isrcRegistrantFor, newToken, upcPrefixFor } from '../../src/server/store/users.js';

export function addLabelAccount(dataDir: string, name: string): { id: number; token: string } {
  const db = openDatabase(dataDir);
  try {
    return db
      .transaction(() => {
        const id = (db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS n FROM users').get() as { n: number }).n;
        const now = new Date().toISOString();
        db.prepare(
          `INSERT INTO users (id, kind, name, email, label_name, artist_name, country, upc_prefix, isrc_registrant, created_at)
           VALUES (?, 'label', ?, ?, ?, NULL, NULL, ?, ?, ?)`,
        ).run(id, name, `label${id}@test.reldist.invalid`, name, upcPrefixFor(id), isrcRegistrantFor(id), now);
        const token = newToken();
        db.prepare("INSERT INTO tokens (hash, user_id, label, created_at) VALUES (?, ?, 'test', ?)").run(hashToken(token), id, now);
        return { id, token };
      })
      .immediate();
  } finally {
    db.close();
  }
}
