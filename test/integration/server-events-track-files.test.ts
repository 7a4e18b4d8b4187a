// release.tracks_changed when a track's file changes: the event compares the track rows the edit
// read before it with the tracks after it, and looks up the old file only when the file changed
// (events/record.ts, fileBefore). Each way a file changes, and a file kept, against the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease, upload, validWav } from '../helpers/releases.js';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
});
afterAll(async () => {
  await s?.close();
});

/** The one event the write `w` recorded (it must record exactly one). */
async function eventOf(w: () => Promise<{ status: number; body: any }>): Promise<any> {
  const cursor = (await api(s, token, 'GET', '/events?last=1')).body.cursor;
  const res = await w();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const got = (await api(s, token, 'GET', `/events?after=${cursor}`)).body.data;
  expect(got).toHaveLength(1);
  return got[0];
}

describe('release.tracks_changed: a track whose file changes', () => {
  it('names the old and the new file, by each way a file changes, and nothing for a file kept', async () => {
    const rel = await createRelease(s, token);
    const a = await upload(s, token, rel.id, validWav(), { filename: 'a.wav' });
    const b = await upload(s, token, rel.id, validWav(), { filename: 'b.wav' });
    expect([a.put.status, b.put.status]).toEqual([200, 200]);
    const put = (tracks: unknown[]) => () => api(s, token, 'PUT', `/releases/${rel.id}/tracks`, tracks);

    const added = await eventOf(put([{ title: 'One', file_key: a.key }, { title: 'Two' }]));
    expect(added.type).toBe('release.tracks_changed');
    const [one, two] = (await api(s, token, 'GET', `/releases/${rel.id}/tracks`)).body;

    // PATCH …/file: a → b.
    const replaced = await eventOf(() => api(s, token, 'PATCH', `/releases/${rel.id}/tracks/${one.id}/file`, { file_key: b.key }));
    expect(replaced.data).toEqual({
      added: [],
      removed: [],
      changed: [{ track_id: one.id, changes: [{ field: 'file', old: { key: a.key, filename: 'a.wav' }, new: { key: b.key, filename: 'b.wav' } }] }],
      changes: [],
    });

    // PUT …/tracks: b → a; then a file for a track that had none.
    const back = await eventOf(
      put([
        { id: one.id, title: 'One', file_key: a.key },
        { id: two.id, title: 'Two' },
      ]),
    );
    expect(back.data.changed).toEqual([
      { track_id: one.id, changes: [{ field: 'file', old: { key: b.key, filename: 'b.wav' }, new: { key: a.key, filename: 'a.wav' } }] },
    ]);
    const first = await eventOf(() => api(s, token, 'PATCH', `/releases/${rel.id}/tracks/${two.id}/file`, { file_key: b.key }));
    expect(first.data.changed).toEqual([{ track_id: two.id, changes: [{ field: 'file', old: null, new: { key: b.key, filename: 'b.wav' } }] }]);

    // A file kept: only the title changes; a track removed is named with its place.
    const renamed = await eventOf(put([{ id: one.id, title: 'One (edit)' }]));
    expect(renamed.data).toEqual({
      added: [],
      removed: [{ track_id: two.id, disc: 1, position: 2, title: 'Two' }],
      changed: [{ track_id: one.id, changes: [{ field: 'title', old: 'One', new: 'One (edit)' }] }],
      changes: [],
    });
  });
});
