// What the disk keeps of uploads: complete files no track names count against the account's
// quota and expire (the running service sweeps them); files with no row and partial files whose
// writer is gone are removed; `reldist sandbox prune` frees the same on demand and says how much.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { uploadFilePath, uploadsDir, uploadsTmpDir } from '../../src/server/store/uploads.js';
import { until } from '../helpers/processes.js';
import { createRelease, upload, validWav } from '../helpers/releases.js';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir, runCli } from './cli-harness.js';

const MiB = 1024 ** 2;
const wav = validWav();

const track = (key: string, title = 'Northern Sky') => ({ file_key: key, title });
const filesOnDisk = (dataDir: string) => (existsSync(uploadsDir(dataDir)) ? readdirSync(uploadsDir(dataDir)) : []);
const bytesOnDisk = (dataDir: string) => filesOnDisk(dataDir).reduce((n, f) => n + statSync(join(uploadsDir(dataDir), f)).size, 0);

/** The pid of a process that has exited: no live process has it (a fresh one would need the whole pid range to wrap). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('quota: complete uploads no track names count against the account', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ uploadLimits: { accountBytes: 20 * MiB } });
  });
  afterAll(() => s.close());

  test('uploading without attaching is refused once the account holds its limit; what is parked stays under it', async () => {
    const rel = (await createRelease(s, s.tokens.label)).id;
    const statuses: number[] = [];
    let refusal: any;
    const keys: string[] = [];
    for (let i = 0; i < 10 && refusal === undefined; i++) {
      const u = await upload(s, s.tokens.label, rel, wav);
      statuses.push(u.put.status);
      if (u.put.status === 200) keys.push(u.key);
      else refusal = u.put.body;
    }
    // 5 MiB a file under 20 MiB: three are held, the fourth is refused before its bytes are kept.
    expect(statuses).toEqual([200, 200, 200, 413]);
    expect(refusal.error.code).toBe('upload_quota_exceeded');
    expect(refusal.error.message).toMatch(
      /holds 15\.1 MiB of uploaded files attached to no track.*20 MiB.*attach those files to tracks.*24 h after their upload.*reldist sandbox prune/,
    );
    expect(bytesOnDisk(s.dataDir)).toBeLessThanOrEqual(20 * MiB);
    expect(filesOnDisk(s.dataDir)).toHaveLength(3);

    // Attached files count no more: the next upload goes through.
    expect((await api(s, s.tokens.label, 'PUT', `/releases/${rel}/tracks`, [track(keys[0]!)])).status).toBe(200);
    expect((await upload(s, s.tokens.label, rel, wav)).put.status).toBe(200);
    // Another account is not held to this one's files.
    const other = (await createRelease(s, s.tokens.artist)).id;
    expect((await upload(s, s.tokens.artist, other, wav)).put.status).toBe(200);
  });
});

describe('expiry: the running service removes unattached uploads past the expiry, and says so', () => {
  let dataDir: string;
  let clock = 0;
  const notices: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>>;
  let s: { url: string };
  beforeAll(async () => {
    dataDir = await makeTempDataDir();
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      sandbox: true,
      now: () => new Date(Date.now() + clock),
      uploadLimits: { unattachedExpiryMs: 3_600_000, sweepMs: 50 },
      logger: { info() {}, warn() {}, error: (m, f) => notices.push(`error: ${m} ${JSON.stringify(f)}`), notice: (m) => notices.push(m) },
    });
    s = { url: server.url };
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("an unattached file and a track's replaced file go after the expiry; attached ones stay; orphans and dead partials go at once", async () => {
    const token = server.tokens!.label;
    const rel = (await createRelease(s, token)).id;
    const [a, b, loose] = [await upload(s, token, rel, wav), await upload(s, token, rel, wav), await upload(s, token, rel, wav)];
    const put = await api(s, token, 'PUT', `/releases/${rel}/tracks`, [track(a.key)]);
    expect(put.status).toBe(200);
    // Replacing a track's file leaves the old one attached to nothing.
    const trackId = put.body.tracks[0].id;
    expect((await api(s, token, 'PATCH', `/releases/${rel}/tracks/${trackId}/file`, { file_key: b.key })).status).toBe(200);

    // Debris of other kinds: a file with no row, a partial file of a process that is gone.
    const orphan = join(uploadsDir(dataDir), `upl_${'0'.repeat(32)}`);
    writeFileSync(orphan, Buffer.alloc(1000));
    mkdirSync(uploadsTmpDir(dataDir), { recursive: true });
    const partial = join(uploadsTmpDir(dataDir), `upl_${'1'.repeat(32)}.abcdef123456.${deadPid()}-0badc0de.part`);
    writeFileSync(partial, Buffer.alloc(2000));
    await until('the orphan and the dead partial removed', () => !existsSync(orphan) && !existsSync(partial), 10_000);
    // Within the expiry, every upload is kept.
    for (const u of [a, b, loose]) expect(existsSync(uploadFilePath(dataDir, u.key))).toBe(true);

    clock = 2 * 3_600_000;
    await until('the expired uploads removed', () => !existsSync(uploadFilePath(dataDir, loose.key)) && !existsSync(uploadFilePath(dataDir, a.key)), 10_000);
    expect(existsSync(uploadFilePath(dataDir, b.key))).toBe(true);
    expect(notices.filter((n) => n.startsWith('error'))).toEqual([]);
    expect(notices).toContain('removed 1 orphan file (0.0 MiB), 1 partial upload (0.0 MiB): 0.0 MiB freed');
    expect(notices).toContain('removed 2 unattached uploads (10.1 MiB): 10.1 MiB freed');
    // The rows went with the files: the keys are unknown now, and the attached track still reads its file.
    const again = await api(s, token, 'PUT', `/releases/${rel}/tracks`, [{ id: trackId, title: 'Northern Sky' }, track(loose.key, 'Two')]);
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body)).toContain('unknown upload key');
    const got = await api(s, token, 'GET', `/releases/${rel}/tracks/${trackId}`);
    expect(got.body.file.key).toBe(b.key);
  });
});

describe('reldist sandbox prune', () => {
  let s: TestServer;
  let config: Awaited<ReturnType<typeof makeConfigDir>>;
  const prune = (...args: string[]) => runCli(['sandbox', 'prune', ...args], { url: s.url, token: s.tokens.label, configDir: config.dir });
  beforeAll(async () => {
    config = await makeConfigDir();
    // The service's own sweep out of the way: what is freed here is prune's doing.
    s = await startTestServer({ uploadLimits: { sweepMs: 3_600_000 } });
  });
  afterAll(async () => {
    await s.close();
    await config.cleanup();
  });

  test('beside the running service: frees unattached uploads, orphans and dead partials, keeps attached files and live partials, reports it', async () => {
    const rel = (await createRelease(s, s.tokens.label)).id;
    const [kept, loose1, loose2] = [
      await upload(s, s.tokens.label, rel, wav),
      await upload(s, s.tokens.label, rel, wav),
      await upload(s, s.tokens.label, rel, wav),
    ];
    expect((await api(s, s.tokens.label, 'PUT', `/releases/${rel}/tracks`, [track(kept.key)])).status).toBe(200);
    writeFileSync(join(uploadsDir(s.dataDir), `upl_${'2'.repeat(32)}`), Buffer.alloc(MiB));
    mkdirSync(uploadsTmpDir(s.dataDir), { recursive: true });
    writeFileSync(join(uploadsTmpDir(s.dataDir), `upl_${'3'.repeat(32)}.abcdef123456.${deadPid()}-0badc0de.part`), Buffer.alloc(MiB));
    // A partial of a live process (this one's parent): kept. One with this process's pid but not
    // its instance is a killed process's whose pid was reused: removed.
    const live = join(uploadsTmpDir(s.dataDir), `upl_${'4'.repeat(32)}.abcdef123456.${process.ppid}-${'f'.repeat(8)}.part`);
    writeFileSync(live, Buffer.alloc(10));
    writeFileSync(join(uploadsTmpDir(s.dataDir), `upl_${'5'.repeat(32)}.abcdef123456.${process.pid}-${'f'.repeat(8)}.part`), Buffer.alloc(MiB));

    // Received just now: nothing is older than an hour.
    const young = await prune('--data-dir', s.dataDir, '--older-than', '1h', '--json');
    expect(young.code, young.stderr).toBe(0);
    expect(JSON.parse(young.stdout).unattached).toEqual({ count: 0, bytes: 0 });

    const r = await prune('--data-dir', s.dataDir, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      data_dir: s.dataDir,
      freed_bytes: 2 * wav.length,
      unattached: { count: 2, bytes: 2 * wav.length },
      orphans: { count: 0, bytes: 0 },
      partials: { count: 0, bytes: 0 },
    });
    // The first run, with --older-than, took the orphan and the dead partials already.
    expect(JSON.parse(young.stdout)).toMatchObject({ orphans: { count: 1, bytes: MiB }, partials: { count: 2, bytes: 2 * MiB } });
    expect(r.stderr).toBe(`freed 10.1 MiB in ${s.dataDir}: 2 unattached uploads (10.1 MiB)\n`);
    expect(filesOnDisk(s.dataDir)).toEqual([kept.key]);
    expect(existsSync(live)).toBe(true);
    for (const u of [loose1, loose2]) expect(existsSync(uploadFilePath(s.dataDir, u.key))).toBe(false);
    // The service goes on: the attached track reads its file, a new upload is taken.
    const tracks = await api(s, s.tokens.label, 'GET', `/releases/${rel}/tracks`);
    expect(tracks.body[0].file.key).toBe(kept.key);
    expect((await upload(s, s.tokens.label, rel, wav)).put.status).toBe(200);

    const nothing = await prune('--data-dir', s.dataDir, '--older-than', '1h');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr).toBe(`nothing to free in ${s.dataDir}\n`);
    expect((await prune('--data-dir', s.dataDir, '--quiet')).stderr).toBe('');
  });

  test('a --data-dir that holds no service is a usage error naming the flag; a bad --older-than too', async () => {
    const empty = await makeTempDataDir();
    try {
      const r = await prune('--data-dir', empty);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: --data-dir: .* is not a reldist data directory/);
      expect(readdirSync(empty)).toEqual([]);
      const bad = await prune('--data-dir', s.dataDir, '--older-than', 'soon');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--older-than: expected a duration/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

test('serve --upload-expiry refuses what it cannot read, naming the flag', async () => {
  const config = await makeConfigDir();
  try {
    for (const [value, message] of [
      ['soon', /--upload-expiry: expected a duration/],
      ['10s', /--upload-expiry: must be at least 1m/],
    ] as const) {
      const r = await runCli(['serve', '--upload-expiry', value], { url: 'http://127.0.0.1:9', token: 'x', configDir: config.dir });
      expect(r.code, value).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  } finally {
    await config.cleanup();
  }
});
