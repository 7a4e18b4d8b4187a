// Input the document does not allow is refused as the document says, not read loosely: integers
// in a query are plain decimals, a parameter comes once, a required body is there; a UTF-8 BOM
// before JSON is accepted; a replayed error names the replaying request in body and header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('query parameters', () => {
  it.each(['0x10', '1e1', '+5', ' 5', '5 ', '05', '1.0', ''])('perPage=%j is a 400 invalid_query', async (value) => {
    const res = await api(server, server.tokens.label, 'GET', `/releases?perPage=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.message).toContain('perPage');
  });

  it('takes plain decimals', async () => {
    expect((await api(server, server.tokens.label, 'GET', '/releases?perPage=5&page=1')).status).toBe(200);
    expect((await api(server, server.tokens.label, 'GET', '/preferences/search-streaming-a?q=Lena&limit=10')).status).toBe(200);
  });

  it('refuses a parameter given twice', async () => {
    const res = await api(server, server.tokens.label, 'GET', '/releases?page=1&page=2');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_query', message: expect.stringContaining('page is given 2 times') });
  });
});

describe('bodies', () => {
  const release = { type: 'single', title: 'Northern Sky', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'Northern Lights Records' };

  it('a missing required body is a 400', async () => {
    const res = await api(server, server.tokens.label, 'POST', '/releases', undefined, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('a body whose fields are all optional may be left out', async () => {
    const created = await api(server, server.tokens.label, 'POST', '/releases', release);
    const res = await api(server, server.tokens.label, 'POST', `/releases/${created.body.id}/submit`);
    expect(res.status).toBe(422); // blocked by the checks, not by the missing body
    expect(res.body.error.code).toBe('submit_blocked');
  });

  it.each([
    ['an escape sequence', 'Evil\u001b[2J'],
    ['a bell', 'Ring\u0007'],
    ['a C1 control', 'CSI\u009b31m'],
    ['a trailing newline', 'Title\n'],
    ['a NUL', 'A\u0000B'],
  ])('text with %s is refused, naming the field and why', async (_what, title) => {
    const res = await api(server, server.tokens.label, 'POST', '/releases', { ...release, title, artists: [{ name: title, role: 'primary' }] });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({
      title: ['control characters (C0, C1, escape sequences) are not allowed'],
      'artists.0.name': ['control characters (C0, C1, escape sequences) are not allowed'],
    });
  });

  it("a reviewer's note may span lines, but carries no other control character", async () => {
    const created = await api(server, server.tokens.label, 'POST', '/releases', release);
    const path = `/releases/${created.body.id}/submit`;
    expect((await api(server, server.tokens.label, 'POST', path, { dry_run: true, notes: 'line one\n\tline two\r\n' })).status).toBe(200);
    const escaped = await api(server, server.tokens.label, 'POST', path, { dry_run: true, notes: 'bold \u001b[1m' });
    expect([escaped.status, Object.keys(escaped.body.error.fields)]).toEqual([422, ['notes']]);
  });

  it('a UTF-8 byte order mark before the JSON is accepted', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(release))]);
    const res = await api(server, server.tokens.label, 'POST', '/releases', new Uint8Array(bytes));
    expect(res.status).toBe(201);
  });
});

describe('replays', () => {
  it('a replayed error carries its own request id in body and header', async () => {
    const headers = { 'idempotency-key': 'strict-input-replay-1' };
    const first = await api(server, server.tokens.label, 'POST', '/releases', { title: '' }, headers);
    const again = await api(server, server.tokens.label, 'POST', '/releases', { title: '' }, headers);
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.body.error.request_id).toBe(first.headers.get('x-request-id'));
    expect(again.body.error.request_id).toBe(again.headers.get('x-request-id'));
    expect(again.body.error.fields).toEqual(first.body.error.fields);
  });
});
