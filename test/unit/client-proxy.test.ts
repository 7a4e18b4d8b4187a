// HTTP(S)_PROXY and NO_PROXY: a tiny recording proxy on 127.0.0.1 (CONNECT tunnels and
// absolute-form requests) shows which requests went through it.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseTransport, createClient } from '../../src/client/index.js';

let target: http.Server;
let proxy: http.Server;
let targetUrl: string;
let proxyUrl: string;
const viaProxy: string[] = [];

beforeAll(async () => {
  target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  proxy = http.createServer((req, res) => {
    // Absolute-form request: forward it.
    viaProxy.push(`${req.method} ${req.url}`);
    const u = new URL(req.url!);
    const fwd = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    req.pipe(fwd);
  });
  proxy.on('connect', (req, socket) => {
    viaProxy.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  target.closeAllConnections();
  await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => target.close(r))]);
});
beforeEach(() => {
  viaProxy.length = 0;
});

describe('proxies', () => {
  it('a proxy in the environment means undici, whatever the work', () => {
    expect(chooseTransport('auto', 'oneshot', {})).toBe('http');
    expect(chooseTransport('auto', 'long', {})).toBe('undici');
    expect(chooseTransport('auto', 'oneshot', { HTTPS_PROXY: 'http://p:3128' })).toBe('undici');
    expect(chooseTransport('auto', 'oneshot', { http_proxy: 'http://p:3128' })).toBe('undici');
  });

  it('sends requests through HTTP_PROXY', async () => {
    const c = createClient({ baseUrl: targetUrl, env: { HTTP_PROXY: proxyUrl } });
    const res = await c.request({ method: 'GET', path: '/me' });
    expect(res.status).toBe(200);
    expect(viaProxy.length).toBe(1);
    expect(viaProxy[0]).toContain(new URL(targetUrl).port);
    await c.close();
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const c = createClient({ baseUrl: targetUrl, env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    expect((await c.request({ method: 'GET', path: '/me' })).status).toBe(200);
    expect(viaProxy).toEqual([]);
    await c.close();
  });
});
