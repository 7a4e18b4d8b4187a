// The track list as a versioned resource: GET …/tracks answers with an ETag (304 on
// If-None-Match), and PUT …/tracks with If-Match refuses a write based on a stale read with 412
// precondition_failed, changing nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRelease, upload, validWav } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
});
afterAll(async () => {
  await s.close();
});

describe('If-Match on PUT …/tracks', () => {
  test('the list has an ETag; a write with the current one goes through, a stale one is 412 and changes nothing', async () => {
    const rel = await createRelease(s, token);
    const tracksPath = `/releases/${rel.id}/tracks`;
    const empty = await api(s, token, 'GET', tracksPath);
    const emptyTag = empty.headers.get('etag')!;
    expect(emptyTag).toMatch(/^"[\w-]+"$/);
    expect((await api(s, token, 'GET', tracksPath, undefined, { 'if-none-match': emptyTag })).status).toBe(304);

    const a = await upload(s, token, rel.id, validWav());
    const first = await api(s, token, 'PUT', tracksPath, [{ file_key: a.key, title: 'One' }], { 'if-match': emptyTag });
    expect(first.status).toBe(200);
    const afterFirst = await api(s, token, 'GET', tracksPath);
    const tag = afterFirst.headers.get('etag')!;
    expect(tag).not.toBe(emptyTag);

    // A second writer that read the empty list: refused, and the list keeps "One".
    const b = await upload(s, token, rel.id, validWav());
    const stale = await api(s, token, 'PUT', tracksPath, [{ file_key: b.key, title: 'Two' }], { 'if-match': emptyTag });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(stale.body.error.message).toMatch(new RegExp(`^the track list of release ${rel.id} changed since it was read`));
    expect((await api(s, token, 'GET', tracksPath)).body.map((t: any) => t.title)).toEqual(['One']);

    // Weak tags never match an If-Match; a list of tags matches if one is current; * always does.
    expect((await api(s, token, 'PUT', tracksPath, [{ id: first.body.tracks[0].id, title: 'One' }], { 'if-match': `W/${tag}` })).status).toBe(412);
    const appended = await api(
      s,
      token,
      'PUT',
      tracksPath,
      [
        { id: first.body.tracks[0].id, title: 'One' },
        { file_key: b.key, title: 'Two' },
      ],
      { 'if-match': `${emptyTag}, ${tag}` },
    );
    expect(appended.status).toBe(200);
    expect(appended.body.tracks.map((t: any) => t.title)).toEqual(['One', 'Two']);
    expect(
      (
        await api(
          s,
          token,
          'PUT',
          tracksPath,
          appended.body.tracks.map((t: any) => ({ id: t.id, title: t.title })),
          { 'if-match': '*' },
        )
      ).status,
    ).toBe(200);

    // Without If-Match the write is unconditional, as before.
    expect((await api(s, token, 'PUT', tracksPath, [{ id: first.body.tracks[0].id, title: 'Only' }])).status).toBe(200);
  });

  test("a stale write to another user's or a missing release is still 404", async () => {
    expect((await api(s, token, 'PUT', '/releases/999999/tracks', [], { 'if-match': '"x"' })).status).toBe(404);
  });
});
