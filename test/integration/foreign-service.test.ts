// A base URL that is not the release service (a web site answering HTML) is named as such, and
// a slow service gets a "waiting for" line on a terminal. The tiny node:http server here answers
// on purpose like something else; it is not a copy of our service.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfigDir, runCli } from './cli-harness.js';

let site: http.Server;
let url: string;
let config: Awaited<ReturnType<typeof makeConfigDir>>;

beforeAll(async () => {
  config = await makeConfigDir();
  site = http.createServer((req, res) => {
    // /slow/… answers our list after a pause long enough for the "waiting for" line.
    const slow = req.url?.startsWith('/slow/');
    setTimeout(
      () => {
        if (slow) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Welcome to our web site</title>');
      },
      slow ? 3500 : 0,
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => site.close(() => r()));
  await config.cleanup();
});

describe('a base URL that is not the release service', () => {
  it('is named, with what it answered, not a crash', async () => {
    for (const tty of [false, true]) {
      const r = await runCli(['release', 'list'], { url, token: 'rd_any', configDir: config.dir, tty });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: ${url} does not look like the release service: it answered text/html\nhint: check the base URL: --base-url, RELDIST_BASE_URL, or the profile \`reldist auth status\` shows\n`,
      );
    }
  });
});

describe('a slow service', () => {
  it('gets one "waiting for <base url>…" line on a terminal, none when piped', async () => {
    const slowUrl = `${url}/slow`;
    const [tty, piped] = await Promise.all([
      runCli(['release', 'list'], { url: slowUrl, token: 'rd_any', configDir: config.dir, tty: true }),
      runCli(['release', 'list'], { url: slowUrl, token: 'rd_any', configDir: config.dir }),
    ]);
    expect([tty.code, piped.code]).toEqual([0, 0]);
    expect(tty.stderr).toBe(`waiting for ${slowUrl}…\nno releases found\n`);
    expect(piped.stderr).toBe('');
  }, 15_000);
});
