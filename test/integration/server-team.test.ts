// The reference service shared with a team: upload URLs on the address clients use (never the
// bind address), one rate-limit budget per token however the header spells it, stale partial
// uploads removed at start, and no signature or token in a --debug trace.
import { createHash } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STALE_PART_MS } from '../../src/server/index.js';
import { uploadsTmpDir } from '../../src/server/store/uploads.js';
import { makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';
import { makeConfigDir, runCli, writeWav } from './cli-harness.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function started(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

/** Asks for an upload URL with node:http (fetch may not set Host). */
async function uploadUrl(s: TestServer, headers: Record<string, string> = {}): Promise<string> {
  const release = await createRelease(s, s.tokens.label);
  const body = JSON.stringify({ filename: 'a.wav', content_type: 'audio/wav', size: 4, sha256: createHash('sha256').update('abcd').digest('hex') });
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${s.url}/releases/${release.id}/tracks/upload-url`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${s.tokens.label}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  expect(status, text).toBe(201);
  return (JSON.parse(text) as { upload_url: string }).upload_url;
}

describe('upload URLs', () => {
  it('use the Host the client asked for; X-Forwarded-* only when trusted', async () => {
    const s = await started();
    const port = new URL(s.url).port;
    expect(await uploadUrl(s, { host: `localhost:${port}` })).toMatch(new RegExp(`^http://localhost:${port}/uploads/upl_`));
    // Not trusted by default: the forwarded host is ignored.
    expect(await uploadUrl(s, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));

    const proxied = await started({ trustProxy: true });
    expect(await uploadUrl(proxied, { 'x-forwarded-host': 'reldist.example.com', 'x-forwarded-proto': 'https' })).toMatch(
      /^https:\/\/reldist\.example\.com\/uploads\//,
    );
  });

  it('use --public-url when given, whatever the request says', async () => {
    const s = await started({ publicUrl: 'https://files.example.com/reldist/', trustProxy: true });
    expect(await uploadUrl(s, { 'x-forwarded-host': 'other.example' })).toMatch(/^https:\/\/files\.example\.com\/reldist\/uploads\/upl_/);
  });
});

describe('rate limit', () => {
  it('is one budget per token, however the Authorization header spells it', async () => {
    const s = await started({ rateLimit: { requests: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (const header of [`Bearer ${s.tokens.label}`, `bearer ${s.tokens.label}`, `BEARER ${s.tokens.label}`, `Bearer  ${s.tokens.label}`]) {
      statuses.push((await fetch(`${s.url}/me`, { headers: { authorization: header } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another token has its own budget.
    expect((await fetch(`${s.url}/me`, { headers: { authorization: `Bearer ${s.tokens.artist}` } })).status).toBe(200);
  });

  it("gives made-up tokens no budgets of their own: they share their address's", async () => {
    const s = await started({ rateLimit: { requests: 2, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${s.url}/me`, { headers: { authorization: `Bearer rd_made_up_${i}` } })).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('can be turned off', async () => {
    const s = await started({ rateLimit: false });
    for (let i = 0; i < 5; i++) expect((await fetch(`${s.url}/me`, { headers: { authorization: `Bearer ${s.tokens.label}` } })).status).toBe(200);
  });
});

describe('start-up housekeeping', () => {
  it('removes partial uploads untouched for longer than the bound, keeps recent ones (another process may be writing them)', async () => {
    const dataDir = await makeTempDataDir();
    const tmp = uploadsTmpDir(dataDir);
    mkdirSync(tmp, { recursive: true });
    const stale = join(tmp, 'upl_0.aaaa.part');
    const fresh = join(tmp, 'upl_1.bbbb.part');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'y');
    const old = new Date(Date.now() - STALE_PART_MS - 60_000);
    utimesSync(stale, old, old);
    const s = await started({ dataDir });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('the CLI', () => {
  it('keeps upload signatures and tokens out of a --debug trace', async () => {
    const s = await started();
    const config = await makeConfigDir();
    try {
      const release = await createRelease(s, s.tokens.label);
      const wav = join(config.dir, 'one.wav');
      await writeWav(wav, { seconds: 31 });
      const r = await runCli(['--debug', 'track', 'upload', String(release.id), wav], { url: s.url, token: s.tokens.label, configDir: config.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('/uploads/upl_');
      expect(r.stderr).toContain('signature=[redacted]');
      expect(r.stderr).not.toMatch(/signature=[0-9a-f]{16}/);
      expect(r.stderr).not.toContain(s.tokens.label);
    } finally {
      await config.cleanup();
    }
  });

  it('names the upload host, not the base URL, when the upload connection fails', async () => {
    // A port that refuses: bound, then closed.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const s = await started({ publicUrl: `http://127.0.0.1:${port}` });
    const config = await makeConfigDir();
    try {
      const release = await createRelease(s, s.tokens.label);
      const wav = join(config.dir, 'one.wav');
      await writeWav(wav, { seconds: 31 });
      const r = await runCli(['track', 'upload', String(release.id), wav], {
        url: s.url,
        token: s.tokens.label,
        configDir: config.dir,
        env: { RELDIST_MAX_RETRIES: '0' },
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`upload host http://127.0.0.1:${port}`);
      expect(r.stderr).not.toContain(`cannot connect to ${s.url}`);
    } finally {
      await config.cleanup();
    }
  });
});
