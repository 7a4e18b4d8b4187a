// The service at scale: the search index and the counts follow every change, an older data
// directory gets them on start, and a verified token stays cached only until it is revoked.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DB_FILE } from '../../src/server/db/open.js';
import { createAccountInDataDir } from '../../src/server/index.js';
import { downgradeToCoreVersion3 } from '../helpers/old-schema.js';
import { createRelease } from '../helpers/releases.js';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';

const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id).sort((a, b) => a - b);

describe('search and filters', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = s.tokens.label;
  });
  afterAll(() => s.close());

  test('search finds a part of a title, an artist, a UPC or a catalog number, and follows edits and deletes', async () => {
    const a = await createRelease(s, token, { title: 'Quiet Harbour Lights', catalog_number: 'QHL-0101', upc: '036000291452' });
    const b = await createRelease(s, token, { title: 'Loud "Harbour" 100%_done', artists: [{ name: 'Mira Solberg', role: 'primary' }] });
    const search = (q: string) => api(s, token, 'GET', `/releases?search=${encodeURIComponent(q)}`);

    expect(ids(await search('harbour'))).toEqual([a.id, b.id].sort((x, y) => x - y));
    expect(ids(await search('HARBOUR LIGHTS'))).toEqual([a.id]);
    expect(ids(await search('solberg'))).toEqual([b.id]);
    expect(ids(await search('00029145'))).toEqual([a.id]);
    expect(ids(await search('qhl-01'))).toEqual([a.id]);
    // Quotes, % and _ are text, never syntax.
    expect(ids(await search('"harbour"'))).toEqual([b.id]);
    expect(ids(await search('100%_'))).toEqual([b.id]);
    // One or two characters: no trigram, still a substring search.
    expect(ids(await search('%_'))).toEqual([b.id]);
    expect((await search('qh')).body.meta.total).toBe(1);

    expect((await api(s, token, 'PATCH', `/releases/${a.id}/metadata`, { title: 'Still Water' })).status).toBe(200);
    expect(ids(await search('harbour'))).toEqual([b.id]);
    expect(ids(await search('still wat'))).toEqual([a.id]);
    expect((await api(s, token, 'DELETE', `/releases/${b.id}`)).status).toBe(200);
    expect((await search('harbour')).body.meta).toMatchObject({ total: 0, total_pages: 0 });
    // Another user's releases are never found.
    expect((await api(s, s.tokens.artist, 'GET', '/releases?search=still%20wat')).body.meta.total).toBe(0);
  });

  test('totals by status and type follow creates, edits and deletes', async () => {
    const totals = async () => ({
      albums: (await api(s, token, 'GET', '/releases?type=album')).body.meta.total as number,
      drafts: (await api(s, token, 'GET', '/releases?status=draft')).body.meta.total as number,
      draftAlbums: (await api(s, token, 'GET', '/releases?status=draft&type=album')).body.meta.total as number,
      all: (await api(s, token, 'GET', '/releases')).body.meta.total as number,
    });
    const start = await totals();
    const r = await createRelease(s, token, { type: 'album' });
    expect(await totals()).toEqual({ albums: start.albums + 1, drafts: start.drafts + 1, draftAlbums: start.draftAlbums + 1, all: start.all + 1 });
    await api(s, token, 'PATCH', `/releases/${r.id}/metadata`, { type: 'ep' });
    expect(await totals()).toEqual({ ...start, drafts: start.drafts + 1, all: start.all + 1 });
    const list = await api(s, token, 'GET', '/releases?status=draft&type=ep&perPage=100');
    expect(list.body.data.map((x: { id: number }) => x.id)).toContain(r.id);
    expect(list.body.data.every((x: { status: string; type: string }) => x.status === 'draft' && x.type === 'ep')).toBe(true);
    await api(s, token, 'DELETE', `/releases/${r.id}`);
    expect(await totals()).toEqual(start);
  });

  test("a list reports each release's track count", async () => {
    const r = await createRelease(s, token, { title: 'Counted' });
    const tracks = [1, 2, 3].map((position) => ({ position, title: `T${position}`, artists: [{ name: 'Nina Vale', role: 'primary' }] }));
    expect((await api(s, token, 'PUT', `/releases/${r.id}/tracks`, { tracks })).status).toBe(200);
    const listed = (await api(s, token, 'GET', '/releases?search=counted')).body.data;
    expect(listed.map((x: { track_count: number }) => x.track_count)).toEqual([3]);
  });

  test('a page with include=tracks gives each release its own tracks, in order, as its own GET does', async () => {
    const tag = `WithTracks${Date.now()}`;
    const made = [];
    for (const count of [2, 0, 3]) {
      const r = await createRelease(s, token, { title: `${tag} ${count}` });
      // Listed out of order: the page must give them by disc and position, as GET /releases/{id}.
      const tracks = Array.from({ length: count }, (_, i) => ({ position: count - i, title: `${tag} ${r.id}.${count - i}` }));
      if (count > 0) expect((await api(s, token, 'PUT', `/releases/${r.id}/tracks`, { tracks })).status).toBe(200);
      made.push(r.id as number);
    }
    const page = await api(s, token, 'GET', `/releases?search=${tag.toLowerCase()}&include=tracks&perPage=100`);
    expect(page.status).toBe(200);
    const own = [];
    for (const id of [...made].reverse()) own.push((await api(s, token, 'GET', `/releases/${id}`)).body);
    expect(page.body.data).toEqual(own);
    expect(page.body.data.map((r: { tracks: { position: number }[] }) => r.tracks.map((t) => t.position))).toEqual([[1, 2, 3], [], [1, 2]]);
  });
});

test('a data directory of the previous schema gets the search index, the counts and NFC catalog keys on start', async () => {
  const dataDir = await makeTempDataDir();
  try {
    let s = await startTestServer({ dataDir });
    const token = s.tokens.label;
    const composed = 'CAFÉ-001'.normalize('NFC');
    const decomposed = 'CAFÉ-001'.normalize('NFD');
    const one = await createRelease(s, token, { title: 'Old Shore', catalog_number: decomposed, type: 'album' });
    const two = await createRelease(s, token, { title: 'Old Field' });
    await s.close();
    const db = new Database(join(dataDir, DB_FILE));
    downgradeToCoreVersion3(db);
    // The key as the previous schema stored it: trimmed and lowercased, not composed.
    db.prepare('UPDATE releases SET catalog_key = ? WHERE id = ?').run(decomposed.trim().toLowerCase(), one.id);
    db.close();

    s = await startTestServer({ dataDir });
    expect(ids(await api(s, token, 'GET', '/releases?search=old%20'))).toEqual([one.id, two.id].sort((x, y) => x - y));
    expect((await api(s, token, 'GET', '/releases?type=album')).body.meta.total).toBe(1);
    expect(ids(await api(s, token, 'GET', `/releases?search=${encodeURIComponent(composed.slice(0, 5))}`))).toEqual([one.id]);
    expect((await api(s, token, 'GET', '/releases?status=draft')).body.meta.total).toBe(2);
    // Found by the composed spelling, and the composed spelling counts as taken.
    expect(ids(await api(s, token, 'GET', `/releases?catalog_number=${encodeURIComponent(composed.toLowerCase())}`))).toEqual([one.id]);
    expect(
      (
        await api(s, token, 'POST', '/releases', {
          ...{ type: 'single', title: 'X', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'L' },
          catalog_number: composed,
        })
      ).status,
    ).toBe(409);
    await s.close();
    const after = new Database(join(dataDir, DB_FILE), { readonly: true });
    expect(after.prepare('SELECT catalog_key FROM releases WHERE id = ?').get(one.id)).toEqual({ catalog_key: composed.toLowerCase() });
    after.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('the filters and the search are answered through indexes, not by reading every release', async () => {
  const dataDir = await makeTempDataDir();
  const s = await startTestServer({ dataDir });
  try {
    const db = new Database(join(dataDir, DB_FILE), { readonly: true });
    const plan = (sql: string, ...args: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT id FROM releases r WHERE r.user_id = ? AND r.status = ? ORDER BY r.id DESC LIMIT 25', 1, 'draft')).toMatch(
      /INDEX releases_user_status/,
    );
    expect(plan('SELECT id FROM releases r WHERE r.user_id = ? AND r.type = ? ORDER BY r.id DESC LIMIT 25', 1, 'ep')).toMatch(/INDEX releases_user_type/);
    expect(
      plan('SELECT id FROM releases r WHERE r.user_id = ? AND r.id IN (SELECT rowid FROM releases_search WHERE releases_search MATCH ?)', 1, '"abc"'),
    ).toMatch(/VIRTUAL TABLE INDEX/);
    expect(plan("SELECT id FROM releases WHERE user_id = ? AND status = 'in_review' AND json_extract(data, '$.auto_review.due_at') <= ?", 1, 'x')).toMatch(
      /releases_review_due/,
    );
    expect(plan('SELECT id FROM releases r WHERE r.user_id = ? AND r.catalog_key = ?', 1, 'x')).toMatch(/releases_user_catalog/);
    expect(plan('SELECT release_id FROM release_code_suffixes WHERE user_id = ? AND suffix >= ? AND suffix < ?', 1, 'a', 'b')).toMatch(
      /SEARCH release_code_suffixes USING PRIMARY KEY/,
    );
    db.close();
  } finally {
    await s.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a token is verified once, and a revoked one is refused at once, whichever process revokes it', async () => {
  const dataDir = await makeTempDataDir();
  const s = await startTestServer({ dataDir, sandbox: false });
  try {
    const token = createAccountInDataDir(dataDir, 'label', 'Cache Records');
    expect((await api(s, token, 'GET', '/me')).status).toBe(200);
    const db = new Database(join(dataDir, DB_FILE));
    // Without the generation trigger, a change of the row goes unnoticed: proof the token is not looked up again.
    db.exec('DROP TRIGGER tokens_updated');
    db.prepare("UPDATE tokens SET hash = 'moved' WHERE label = 'account'").run();
    expect((await api(s, token, 'GET', '/me')).status).toBe(200);
    // A revocation (any delete) moves the generation: the cache is dropped and the token refused.
    db.prepare("DELETE FROM tokens WHERE hash = 'moved'").run();
    db.close();
    expect((await api(s, token, 'GET', '/me')).status).toBe(401);
  } finally {
    await s.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
