import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { maskToken, redactHeaders, redactText } from '../../src/client/redact.js';
import { createClient } from '../../src/client/index.js';

describe('redaction', () => {
  it('masks a token to a hint that cannot be used', () => {
    expect(maskToken('rd_label_0123456789abcdef')).toBe('rd_…cdef');
    expect(maskToken('short')).toBe('…');
  });

  it('redacts credentials in headers and text', () => {
    expect(redactHeaders({ Authorization: 'Bearer rd_x', 'content-type': 'a/b', cookie: 's=1' })).toEqual({
      Authorization: 'Bearer [redacted]',
      'content-type': 'a/b',
      cookie: '[redacted]',
    });
    expect(redactText('token rd_abcdef in {"t":"rd_abcdef"}', ['rd_abcdef'])).toBe('token [redacted] in {"t":"[redacted]"}');
    expect(redactText('authorization: Bearer whatever', [])).toBe('authorization: Bearer [redacted]');
  });

  it('redacts the signature of signed URLs, in a URL line and in a JSON body', () => {
    expect(redactText('> PUT http://h/uploads/upl_1?expires=9&signature=abc123', [])).toBe('> PUT http://h/uploads/upl_1?expires=9&signature=[redacted]');
    expect(redactText('{"upload_url":"https://s3/x?X-Amz-Signature=f00&a=1"}', [])).toBe('{"upload_url":"https://s3/x?X-Amz-Signature=[redacted]&a=1"}');
  });

  it('never lets the token into a debug trace, even when the service echoes it', async () => {
    const token = 'rd_supersecret_9f8e7d6c';
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': String(req.headers.authorization) });
      res.end(JSON.stringify({ echoed: req.headers.authorization, token }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const lines: string[] = [];
    for (const transport of ['http', 'undici'] as const) {
      const c = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token, transport, trace: (l) => lines.push(l) });
      await c.request({ method: 'POST', path: '/x', body: JSON.stringify({ token }), headers: { 'idempotency-key': 'k' } });
      await c.close();
    }
    await new Promise<void>((r) => server.close(() => r()));
    const all = lines.join('\n');
    expect(all).toContain('> POST');
    expect(all).toContain('< 200');
    expect(all).toContain('[redacted]');
    expect(all).not.toContain('supersecret');
  });
});
