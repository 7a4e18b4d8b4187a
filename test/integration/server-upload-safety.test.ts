// The upload route with hostile or unlucky clients: a refusal is always the documented answer,
// never a broken pipe; bytes in flight are limited per account and in total; an upload lives as
// long as it moves and dies when it stalls; connections are capped.
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { pruneDataDir } from '../../src/server/index.js';
import { sha256 } from '../helpers/audio.js';
import { createRelease, validWav } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

interface Answer {
  status: number;
  body: string;
  /** 100 Continue received before the answer. */
  continued: boolean;
  /** Body bytes written before the answer came. */
  sent: number;
}

/**
 * PUTs `bytes` to `url` with node:http in 64 KiB writes, as a plain client does. With `expect`,
 * waits for 100 Continue first and sends nothing if the answer comes before it.
 */
function put(url: string, bytes: Buffer, o: { expect?: boolean; chunkDelayMs?: number; stopAfter?: number } = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let continued = false;
    let sent = 0;
    let answered = false;
    const req = request({
      host: u.hostname,
      port: u.port,
      method: 'PUT',
      path: u.pathname + u.search,
      headers: { 'content-type': 'audio/wav', 'content-length': String(bytes.length), ...(o.expect ? { expect: '100-continue' } : {}) },
    });
    const writeAll = async () => {
      for (let at = 0; at < bytes.length && !answered && !req.destroyed; at += 65536) {
        if (o.stopAfter !== undefined && at >= o.stopAfter) return; // stalls: sends nothing more
        const chunk = bytes.subarray(at, at + 65536);
        sent += chunk.length;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        if (o.chunkDelayMs) await new Promise((r) => setTimeout(r, o.chunkDelayMs));
      }
      if (!answered) req.end();
    };
    req.on('continue', () => {
      continued = true;
      void writeAll();
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, continued, sent });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (!o.expect) void writeAll();
  });
}

async function uploadUrl(s: TestServer, token: string, releaseId: number, bytes: Buffer, declareSha = true): Promise<string> {
  const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
    filename: 'a.wav',
    content_type: 'audio/wav',
    size: bytes.length,
    ...(declareSha ? { sha256: sha256(bytes) } : {}),
  });
  expect(u.status).toBe(201);
  return u.body.upload_url;
}

describe('a refused upload is answered, never a broken pipe', () => {
  let s: TestServer;
  let clock = 0;
  let releaseId: number;
  beforeAll(async () => {
    s = await startTestServer({ now: () => new Date(Date.now() + clock) });
    releaseId = (await createRelease(s, s.tokens.label)).id;
  });
  afterAll(() => s.close());

  test('5 MB sent to a bad, a foreign and an expired address: 403, 403, 410, 10 times out of 10 each', async () => {
    const wav = validWav();
    expect(wav.length).toBeGreaterThan(5_000_000);
    const good = await uploadUrl(s, s.tokens.label, releaseId, wav);
    const bad = good.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
    // The artist's own address, but for another file (size and digest are signed): foreign to this one.
    const artistRelease = (await createRelease(s, s.tokens.artist)).id;
    const other = await uploadUrl(s, s.tokens.artist, artistRelease, Buffer.concat([wav, Buffer.alloc(2)]));
    const foreign = other.replace(/upl_[0-9a-f]+/, new URL(good).pathname.split('/').pop()!);
    for (let i = 0; i < 10; i++) {
      expect((await put(bad, wav)).status).toBe(403);
      expect((await put(foreign, wav)).status).toBe(403);
    }
    clock = 2 * 3600_000;
    try {
      for (let i = 0; i < 10; i++) {
        const r = await put(good, wav);
        expect(r.status, r.body).toBe(410);
        expect(JSON.parse(r.body).error.code).toBe('upload_expired');
      }
    } finally {
      clock = 0;
    }
    expect((await readdir(join(s.dataDir, 'uploads', 'tmp')).catch(() => [])).length).toBe(0);
  });

  test('with Expect: 100-continue the refusal comes before a byte is sent', async () => {
    const wav = validWav();
    const good = await uploadUrl(s, s.tokens.label, releaseId, wav);
    const r = await put(good.replace(/signature=[0-9a-f]{4}/, 'signature=0000'), wav, { expect: true });
    expect(r).toMatchObject({ status: 403, continued: false, sent: 0 });
    // And an accepted one is asked for its body, and stored.
    const ok = await put(good, wav, { expect: true });
    expect(ok.status, ok.body).toBe(200);
    expect(ok.continued).toBe(true);
  });

  test('without a declared sha256 the service answers the digest it computed', async () => {
    const wav = validWav();
    const r = await put(await uploadUrl(s, s.tokens.label, releaseId, wav, false), wav);
    expect(r.status, r.body).toBe(200);
    expect(JSON.parse(r.body).sha256).toBe(sha256(wav));
  });
});

describe('limits', () => {
  const wav = validWav();
  let s: TestServer;
  beforeAll(async () => {
    // One file fits an account, two do not; two accounts' files do not fit the total.
    s = await startTestServer({ uploadLimits: { accountBytes: wav.length + 10, totalBytes: 2 * wav.length - 1, stallMs: 1500 }, maxConnections: 20 });
  });
  afterAll(() => s.close());
  // Each test from an account holding no complete upload: unattached ones count against its bytes (uploads/retention.ts).
  beforeEach(() => void pruneDataDir(s.dataDir));

  /** Starts an upload and sends `bytes` of it, then holds; resolves once the service has its file open. */
  async function hold(url: string): Promise<{ finish(): Promise<Answer> }> {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, method: 'PUT', path: u.pathname + u.search, headers: { 'content-length': String(wav.length) } });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, continued: false, sent: wav.length }));
      });
      req.on('error', reject);
    });
    req.write(wav.subarray(0, 65536));
    for (let i = 0; i < 200; i++) {
      if ((await readdir(join(s.dataDir, 'uploads', 'tmp')).catch(() => [])).length > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    // Keep it moving (under the stall timeout) until told to finish.
    let at = 65536;
    const keepAlive = setInterval(() => {
      if (at < wav.length - 65536) req.write(wav.subarray(at, (at += 1024)));
    }, 50);
    return {
      finish() {
        clearInterval(keepAlive);
        req.end(wav.subarray(at));
        return answer;
      },
    };
  }

  test('bytes in flight: a second upload of one account is 413 upload_quota_exceeded; over the total, 507 upload_capacity_exceeded', async () => {
    const label = (await createRelease(s, s.tokens.label)).id;
    const artist = (await createRelease(s, s.tokens.artist)).id;
    const first = await hold(await uploadUrl(s, s.tokens.label, label, wav));
    const second = await put(await uploadUrl(s, s.tokens.label, label, wav), wav, { expect: true });
    expect(second.status).toBe(413);
    expect(JSON.parse(second.body).error.code).toBe('upload_quota_exceeded');
    expect(second.sent).toBe(0);
    const other = await put(await uploadUrl(s, s.tokens.artist, artist, wav), wav);
    expect(other.status).toBe(507);
    expect(JSON.parse(other.body).error.code).toBe('upload_capacity_exceeded');
    expect((await first.finish()).status).toBe(200);
    // Given back when it ended: the next one goes through.
    expect((await put(await uploadUrl(s, s.tokens.artist, artist, wav), wav)).status).toBe(200);
  });

  test('track upload of a file larger than one account may send at once: one clear line, nothing attached', async () => {
    const { makeConfigDir, runCli, writeWav } = await import('./cli-harness.js');
    const config = await makeConfigDir();
    try {
      const rel = (await createRelease(s, s.tokens.label)).id;
      const big = join(config.dir, 'long.wav');
      await writeWav(big, { seconds: 40 });
      const r = await runCli(['track', 'upload', String(rel), big], { url: s.url, token: s.tokens.label, configDir: config.dir });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/long\.wav: the file \(6\.7 MiB\) is larger than this service accepts from one account at a time \(5 MiB\)/);
      expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
    } finally {
      await config.cleanup();
    }
  });

  test('a slow upload lives as long as it moves; a stalled one is cut off and leaves no file', async () => {
    const rel = (await createRelease(s, s.tokens.label)).id;
    // ~80 writes 50 ms apart: more than twice the stall timeout in all, never 1.5 s silent.
    const slow = await put(await uploadUrl(s, s.tokens.label, rel, wav), wav, { chunkDelayMs: 50 });
    expect(slow.status, slow.body).toBe(200);
    const stalled = put(await uploadUrl(s, s.tokens.label, rel, wav), wav, { stopAfter: 1 << 20 });
    await expect(stalled).rejects.toThrow(/socket hang up|ECONNRESET/);
    let tmp: string[] = [];
    for (let i = 0; i < 100; i++) {
      tmp = await readdir(join(s.dataDir, 'uploads', 'tmp')).catch(() => []);
      if (tmp.length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(tmp).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});

test('connections beyond --max-connections are closed as they arrive', async () => {
  const s = await startTestServer({ maxConnections: 2 });
  try {
    const port = Number(new URL(s.url).port);
    const open = () =>
      new Promise<import('node:net').Socket>((resolve) => {
        const c = connect(port, '127.0.0.1', () => resolve(c));
      });
    const held = [await open(), await open()];
    const third = await open();
    const closed = await new Promise<boolean>((resolve) => {
      third.once('close', () => resolve(true));
      third.once('error', () => resolve(true));
      third.write('GET /lookup/countries HTTP/1.1\r\nHost: x\r\n\r\n');
      setTimeout(() => resolve(false), 2000);
    });
    expect(closed).toBe(true);
    for (const c of held) c.destroy();
  } finally {
    await s.close();
  }
});

test('serve: the limits flags refuse what they cannot read, naming the flag', async () => {
  const { makeConfigDir, runCli } = await import('./cli-harness.js');
  const config = await makeConfigDir();
  try {
    const bad = [
      ['--max-connections', '0', /--max-connections: expected a whole number from 1 to 1000000, got "0"/],
      ['--upload-account-limit', '5XB', /--upload-account-limit: expected a size like 500MB or 4GiB, got "5XB"/],
      ['--upload-total-limit', '-1', /--upload-total-limit: expected a size/],
      ['--upload-stall-timeout', 'soon', /--upload-stall-timeout: expected a duration/],
    ] as const;
    for (const [flag, value, message] of bad) {
      const r = await runCli(['serve', flag, value], { url: 'http://127.0.0.1:9', token: 'x', configDir: config.dir });
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  } finally {
    await config.cleanup();
  }
});

test('a malformed upload key is 403 like any unknown address, not a failure of the service', async () => {
  const s = await startTestServer();
  try {
    const r = await put(`${s.url}/uploads/%E0%A4%A?expires=1&signature=00`, Buffer.alloc(10));
    expect(r.status).toBe(403);
    expect(s.errors).toEqual([]);
  } finally {
    await s.close();
  }
});
