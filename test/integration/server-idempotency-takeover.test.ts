// Taking over an Idempotency-Key left "in progress" (http/idempotency.ts): at once when the request
// that held it is provably gone (not in flight in this process, or its process has exited), after
// 30 s otherwise (server-ci.test.ts); and a request whose key was taken over while it ran does
// not commit its write (the answer is saved with the write only while the request holds the key).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ArtistDirectory, ArtistPlatformResult } from '../../src/server/artists/directory.js';
import { DB_FILE } from '../../src/server/db/open.js';
import { createRelease } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

/** A directory whose look-ups wait until the test opens the gate; it counts the look-ups waiting. */
function gatedDirectory() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const profile: ArtistPlatformResult = {
    platform: 'video_b',
    id: 'UC-gated',
    name: 'Gated Channel',
    url: 'https://video-b.example/@gated',
    image_url: null,
    followers: null,
    handle: 'gated',
  };
  const directory: ArtistDirectory = {
    search: async () => [],
    get: async () => undefined,
    getByHandle: async () => {
      waiting++;
      await gate;
      return profile;
    },
  };
  return { directory, open, waiting: () => waiting };
}

const gated = gatedDirectory();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ artists: gated.directory });
});
afterAll(async () => {
  await s.close();
});

/** Changes the key's row as a crash (or another process) would have left it. */
function setKeyRow(key: string, set: string, ...args: unknown[]): void {
  const db = new Database(join(s.dataDir, DB_FILE));
  try {
    expect(db.prepare(`UPDATE idempotency SET ${set} WHERE key = ?`).run(...args, key).changes).toBe(1);
  } finally {
    db.close();
  }
}

/** A process that has come and gone: its pid names no process any more. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('close', resolve));
  return child.pid!;
}

const title = (t: string) => JSON.stringify({ title: t });

describe('a key whose holder is provably gone is taken over at once', () => {
  test('held by a request of this process that is no longer in flight (it failed between its key and its answer)', async () => {
    const r = await createRelease(s, s.tokens.label);
    const key = `gone-request-${r.id}`;
    expect((await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('First'), { 'idempotency-key': key })).status).toBe(200);
    setKeyRow(key, 'status = NULL, body = NULL');
    const taken = await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('First'), { 'idempotency-key': key });
    expect(taken.status).toBe(200);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
  });

  test('held by a process of this host that has exited', async () => {
    const r = await createRelease(s, s.tokens.label);
    const key = `gone-process-${r.id}`;
    expect((await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('Second'), { 'idempotency-key': key })).status).toBe(200);
    setKeyRow(key, 'status = NULL, body = NULL, owner_pid = ?', await exitedPid());
    const taken = await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('Second'), { 'idempotency-key': key });
    expect(taken.status).toBe(200);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    // Answered now: the next retry replays it.
    const again = await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('Second'), { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('held by a process of this host that still runs: 409 idempotency_in_progress with Retry-After', async () => {
    const r = await createRelease(s, s.tokens.label);
    const key = `live-process-${r.id}`;
    expect((await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('Third'), { 'idempotency-key': key })).status).toBe(200);
    // The test runner's parent: alive for as long as this test runs.
    setKeyRow(key, 'status = NULL, body = NULL, owner_pid = ?', process.ppid);
    const busy = await api(s, s.tokens.label, 'PATCH', `/releases/${r.id}/metadata`, title('Third'), { 'idempotency-key': key });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('idempotency_in_progress');
    expect(busy.headers.get('retry-after')).toBe('1');
  });
});

test("a request whose key was taken over while it ran rolls its write back: one effect, the later request's", async () => {
  const key = 'fenced-label-artist';
  const body = JSON.stringify({ artists: [{ name: 'Fenced Artist', platforms: [{ platform: 'video_b', mode: 'existing', profile_id: '@gated' }] }] });
  const send = () => api(s, s.tokens.label, 'POST', '/preferences/label/submit', body, { 'idempotency-key': key });
  // The first request holds the key and waits in its profile look-up (before its write).
  const first = send();
  for (let i = 0; i < 200 && gated.waiting() < 1; i++) await new Promise((r) => setTimeout(r, 10));
  expect(gated.waiting()).toBe(1);
  // It has been "running" past the time limit: a retry takes the key over, and waits in turn.
  setKeyRow(key, 'created_at = ?', new Date(Date.now() - 60_000).toISOString());
  const second = send();
  for (let i = 0; i < 200 && gated.waiting() < 2; i++) await new Promise((r) => setTimeout(r, 10));
  expect(gated.waiting()).toBe(2);
  gated.open();
  const [a, b] = await Promise.all([first, second]);
  // The second holds the key: its write and answer are the key's. The first wrote nothing, and
  // answered what the key answers (a replay) or that it is still in progress.
  expect(b.status).toBe(200);
  expect(b.body.message).toBe('Label preferences saved: 1 artist added.');
  expect(a.status === 409 || a.headers.get('idempotent-replayed') === 'true').toBe(true);
  const listed = await api(s, s.tokens.label, 'GET', '/preferences/label?search=Fenced');
  expect(listed.body.artists.map((x: { name: string }) => x.name)).toEqual(['Fenced Artist']);
  const replay = await send();
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(b.body);
});
