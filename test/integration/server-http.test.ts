// The HTTP layer of the service: every error class, the one error body, request ids, rate
// limiting, restarts and a graceful close. Real service, real sockets, loopback only.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBody } from '../../src/contract/index.js';
import { createRelease, validRelease, validWav } from '../helpers/releases.js';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';
import { sha256 } from '../helpers/audio.js';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
});
afterAll(async () => {
  await s.close();
});

/** Sends raw bytes with exactly the headers given (fetch would add or fix some). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(s.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function expectError(res: { status: number; body: any; headers: any }, status: number, code: string): void {
  expect(res.status).toBe(status);
  const body = ErrorBody.parse(res.body);
  expect(body.error.status).toBe(status);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toMatch(/^req_/);
  const rid = typeof res.headers.get === 'function' ? res.headers.get('x-request-id') : res.headers['x-request-id'];
  expect(rid).toBe(body.error.request_id);
}

describe('400 malformed input', () => {
  test('malformed JSON, invalid UTF-8 and absurd nesting are 400 invalid_json', async () => {
    expectError(await api(s, token, 'POST', '/releases', '{"type": "single",'), 400, 'invalid_json');
    expectError(await api(s, token, 'POST', '/releases', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])), 400, 'invalid_json');
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expectError(await api(s, token, 'POST', '/releases', deep), 400, 'invalid_json');
  });
});

describe('400 unknown query parameters', () => {
  test('any name an endpoint does not list is refused, on endpoints with a query and without one', async () => {
    const release = await createRelease(s, token);
    const asked = [
      '/releases?__proto__=x',
      '/releases?constructor=1',
      '/releases?foo=1',
      '/me?foo=1',
      `/releases/${release.id}?x=1`,
      '/lookup/genres?__proto__=x',
      '/lookup/countries?hasOwnProperty=1',
      `/releases/${release.id}/tracks?page=1`,
    ];
    for (const path of asked) {
      const res = await api(s, token, 'GET', path);
      expectError(res, 400, 'invalid_query');
      expect(res.body.error.message, path).toMatch(/^invalid query parameter (__proto__|constructor|foo|x|hasOwnProperty|page): unknown field$/);
    }
    expect((await api(s, token, 'GET', '/releases?perPage=5')).status).toBe(200);
  });
});

/** Writes raw bytes on a fresh connection and reads all that comes back until the service closes it. */
function rawBytes(bytes: string): Promise<string> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
}

describe("Node's own parser errors", () => {
  test.each([
    ['a malformed header', `GET /me HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`, 400, 'bad_request'],
    ['a malformed request line', `GET /me HTTP/9\r\nHost: x\r\n\r\n`, 400, 'bad_request'],
    ['headers over 16 KiB', `GET /me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s gets the error body and a request id', async (_what, bytes, status, code) => {
    const answer = await rawBytes(bytes);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    const rid = /^x-request-id: (req_[\w-]+)$/im.exec(head)?.[1];
    const parsed = ErrorBody.parse(JSON.parse(body));
    expect(parsed.error).toMatchObject({ status, code, request_id: rid });
  });
});

describe('401', () => {
  test('missing, malformed or unknown tokens', async () => {
    expectError(await api(s, undefined, 'GET', '/me'), 401, 'unauthorized');
    expectError(await api(s, 'rd_not-a-real-token', 'GET', '/me'), 401, 'unauthorized');
    const basic = await raw('GET', '/me', { authorization: 'Basic dXNlcjpwYXNz' });
    expectError(basic, 401, 'unauthorized');
    expect(basic.headers['www-authenticate']).toContain('Bearer');
    // The token never comes back in the answer.
    const res = await api(s, 'rd_secret_value_123', 'GET', '/releases');
    expect(JSON.stringify(res.body)).not.toContain('rd_secret_value_123');
  });
});

describe('404', () => {
  test('unknown paths and ids that are not positive integers', async () => {
    expectError(await api(s, token, 'GET', '/nothing/here'), 404, 'not_found');
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', 'x'.repeat(200), '%E0%A4%A', '%00', '1%2F2']) {
      const res = await api(s, token, 'GET', `/releases/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      const t = await api(s, token, 'GET', `/releases/${id}/tracks/${id}`);
      expect(t.status, id).toBe(404);
    }
    expectError(await api(s, token, 'GET', '/releases/424242'), 404, 'not_found');
  });

  test('sandbox controls do not exist unless the service runs as a sandbox', async () => {
    const prod = await startTestServer({ sandbox: false });
    try {
      const r = await createRelease(prod, prod.tokens.label);
      expectError(await api(prod, prod.tokens.label, 'POST', `/_sandbox/releases/${r.id}/approve`, {}), 404, 'not_found');
    } finally {
      await prod.close();
    }
  });
});

describe('405', () => {
  test('a known path with the wrong method names the allowed ones', async () => {
    const a = await api(s, token, 'GET', '/releases/validate/upc');
    expectError(a, 405, 'method_not_allowed');
    expect(a.headers.get('allow')).toBe('POST');
    const b = await api(s, token, 'PUT', '/me', {});
    expectError(b, 405, 'method_not_allowed');
    expect(b.headers.get('allow')).toBe('GET');
    const c = await api(s, token, 'POST', '/releases/1');
    expect(c.headers.get('allow')).toBe('DELETE, GET');
  });
});

describe('413 and 415', () => {
  test('a body over 1 MiB is 413, declared or chunked', async () => {
    const big = JSON.stringify({ ...validRelease, title: 'x'.repeat(1024 * 1024 + 10) });
    expectError(await api(s, token, 'POST', '/releases', big), 413, 'payload_too_large');
    const chunked = await raw(
      'POST',
      '/releases',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      big,
    );
    expectError(chunked, 413, 'payload_too_large');
  });

  test('a body that is not JSON on a JSON endpoint is 415', async () => {
    expectError(
      await api(s, token, 'POST', '/releases', 'type=single', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
    expectError(await raw('POST', '/releases', { authorization: `Bearer ${token}` }, JSON.stringify(validRelease)), 415, 'unsupported_media_type');
    // Only the type the document lists: a +json type is another media type.
    for (const type of ['application/vnd.api+json', 'application/merge-patch+json', 'text/json']) {
      expectError(await api(s, token, 'POST', '/releases', validRelease, { 'content-type': type }), 415, 'unsupported_media_type');
    }
    // JSON with a charset is fine.
    const ok = await api(s, token, 'POST', '/releases', validRelease, { 'content-type': 'application/json; charset=utf-8' });
    expect(ok.status).toBe(201);
  });
});

describe('422', () => {
  test('wrong types and unknown fields are listed by path', async () => {
    const res = await api(s, token, 'POST', '/releases', {
      ...validRelease,
      type: 'mixtape',
      artists: [{ name: 'Nina', role: 'singer' }],
      p_line: { year: '2026', owner: 'X' },
      colour: 'blue',
    });
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['artists.0.role', 'colour', 'p_line.year', 'type']);
    // No body at all where one is required: a 400 (an empty object lists the missing fields).
    const missing = await api(s, token, 'POST', '/releases', '', { 'content-type': 'application/json' });
    expectError(missing, 400, 'invalid_json');
    const empty = await api(s, token, 'POST', '/releases', {});
    expectError(empty, 422, 'validation_failed');
    expect(Object.keys(empty.body.error.fields)).toEqual(expect.arrayContaining(['type', 'title', 'artists', 'label']));
  });

  test('field names that are also object properties are reported like any other', async () => {
    const res = await api(
      s,
      token,
      'POST',
      '/releases',
      `{"type":"single","title":"T","artists":[{"name":"N","role":"primary"}],"label":"L","constructor":1,"__proto__":{"x":1},"toString":2}`,
    );
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['__proto__', 'constructor', 'toString']);
  });

  test('a body of either shape (PUT tracks: object or array) is reported against the shape it tried', async () => {
    const r = await createRelease(s, token);
    const arr = await api(s, token, 'PUT', `/releases/${r.id}/tracks`, [{ title: 'A', artists: [{ name: 'N', role: 'singer' }] }]);
    expectError(arr, 422, 'validation_failed');
    expect(Object.keys(arr.body.error.fields)).toEqual(['0.artists.0.role']);
    const obj = await api(s, token, 'PUT', `/releases/${r.id}/tracks`, { tracks: 5 });
    expect(Object.keys(obj.body.error.fields)).toEqual(['tracks']);
  });
});

describe('request ids', () => {
  test('every response carries a distinct X-Request-Id', async () => {
    const ids = new Set<string>();
    for (const [m, p, t] of [
      ['GET', '/me', token],
      ['GET', '/nope', token],
      ['GET', '/me', undefined],
      ['PUT', '/me', token],
      ['GET', '/lookup/genres', token],
    ] as const) {
      const res = await api(s, t, m, p, m === 'PUT' ? {} : undefined);
      const id = res.headers.get('x-request-id');
      expect(id, `${m} ${p}`).toMatch(/^req_[A-Za-z0-9_-]+$/);
      ids.add(id!);
    }
    expect(ids.size).toBe(5);
  });
});

describe('429', () => {
  test('past the per-token budget: 429 with Retry-After; other tokens unaffected', async () => {
    const limited = await startTestServer({ rateLimit: { requests: 3, windowMs: 3_600_000 } });
    try {
      for (let i = 0; i < 3; i++) expect((await api(limited, limited.tokens.label, 'GET', '/me')).status).toBe(200);
      const res = await api(limited, limited.tokens.label, 'GET', '/me');
      expectError(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api(limited, limited.tokens.artist, 'GET', '/me')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('data directory', () => {
  test('a restart keeps releases, tokens and uploads; the tokens file is 0600', async () => {
    const dir = await makeTempDataDir();
    try {
      const first = await startTestServer({ dataDir: dir });
      const r = await createRelease(first, first.tokens.label, { title: 'Survives Restarts' });
      await first.close();
      const mode = (await stat(join(dir, 'sandbox-tokens.json'))).mode & 0o777;
      expect(mode).toBe(0o600);
      const second = await startTestServer({ dataDir: dir });
      try {
        expect(second.tokens).toEqual(first.tokens);
        const got = await api(second, second.tokens.label, 'GET', `/releases/${r.id}`);
        expect(got.status).toBe(200);
        expect(got.body).toEqual(r);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('partial uploads a crash left behind are removed at start, once they are a day old', async () => {
    const dir = await makeTempDataDir();
    try {
      const tmp = join(dir, 'uploads', 'tmp');
      await mkdir(tmp, { recursive: true });
      await writeFile(join(tmp, 'old.part'), 'x');
      await writeFile(join(tmp, 'fresh.part'), 'x');
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      await utimes(join(tmp, 'old.part'), twoDaysAgo, twoDaysAgo);
      const srv = await startTestServer({ dataDir: dir });
      await srv.close();
      expect(await readdir(tmp)).toEqual(['fresh.part']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('two services opening one new data directory at the same moment share accounts', async () => {
    const dir = await makeTempDataDir();
    try {
      const [a, b] = await Promise.all([startTestServer({ dataDir: dir }), startTestServer({ dataDir: dir })]);
      try {
        expect(a.tokens).toEqual(b.tokens);
        const r = await createRelease(a, a.tokens.label);
        expect((await api(b, b.tokens.label, 'GET', `/releases/${r.id}`)).status).toBe(200);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('graceful close', () => {
  test('close() lets a request in flight finish, then refuses new connections', async () => {
    const own = await startTestServer();
    const r = await createRelease(own, own.tokens.label);
    const wav = validWav();
    const u = await api(own, own.tokens.label, 'POST', `/releases/${r.id}/tracks/upload-url`, {
      filename: 'a.wav',
      content_type: 'audio/wav',
      size: wav.length,
      sha256: sha256(wav),
    });
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const half = Math.floor(wav.length / 2);
    let sentFirst!: () => void;
    const firstSent = new Promise<void>((res) => (sentFirst = res));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(wav.subarray(0, half));
        sentFirst();
        await gate;
        controller.enqueue(wav.subarray(half));
        controller.close();
      },
    });
    const inFlight = fetch(u.body.upload_url, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    await firstSent;
    // Bounded wait until the server has the request (the first bytes are on the socket).
    await new Promise((res) => setTimeout(res, 50));
    let closed = false;
    const closing = own.close().then(() => (closed = true));
    await new Promise((res) => setImmediate(res));
    expect(closed).toBe(false);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${own.url}/me`)).rejects.toThrow();
  });
});
