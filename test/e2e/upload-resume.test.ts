// `track upload` SIGKILLed in the middle of an upload in parts, then run again: the second run
// continues the same upload and sends only the parts the service did not hold (at most those in
// flight when it died: one part with one connection); the track's sha256 is the file's. The
// checkpoint it left is owner-only and holds no address and no token. A file changed between the
// runs drops its checkpoint: everything is sent again. The built binary (npm test builds it first),
// through a counting proxy (test/helpers/upload-proxy.ts); small parts keep the file small.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { startRun } from '../helpers/kill-run.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { api } from '../helpers/server.js';
import { startUploadProxy, type UploadProxy } from '../helpers/upload-proxy.js';
import { cliEnv, serveForTests, type Target } from './cli-e2e-helpers.js';

const MiB = 1024 * 1024;
let target: Target;
serveForTests((t) => {
  target = t;
});
let proxy: UploadProxy;
let work: string;
let serviceUrl: string;

beforeAll(async () => {
  serviceUrl = target.url;
  proxy = await startUploadProxy(serviceUrl);
  work = await mkdtemp(join(tmpdir(), 'reldist-resume-'));
});
afterAll(async () => {
  await proxy.close();
  await rm(work, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function newRelease(): Promise<number> {
  const r = await api({ url: serviceUrl }, target.token, 'POST', '/releases', {
    title: 'Resume',
    type: 'single',
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    label: 'Northern Lights Records',
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** Runs `track upload`, SIGKILLed once `killAfter` parts are answered; its env: parts of 1 MiB over `connections`. */
async function upload(releaseId: number, file: string, connections: number, killAfter?: number) {
  const env = cliEnv({ ...target, url: proxy.url }, { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: String(connections) });
  const run = startRun({ args: ['track', 'upload', String(releaseId), file, '--json'], env, timeoutMs: 50_000 });
  proxy.onPartAnswered = killAfter === undefined ? undefined : (n) => void (n === killAfter && run.kill());
  const r = await run.result;
  proxy.onPartAnswered = undefined;
  return r;
}

const heldParts = async () => {
  const list = await api({ url: serviceUrl }, target.token, 'GET', '/uploads?state=receiving');
  return list.body as { key: string; received_bytes: number; size: number }[];
};

describe('a killed track upload, run again', () => {
  for (const connections of [1, 4]) {
    test(`continues the upload: only parts the service did not hold are sent (${connections} connection${connections > 1 ? 's' : ''})`, async () => {
      const releaseId = await newRelease();
      const file = join(work, `resume-${connections}.wav`);
      // 70 s of 44.1 kHz 16-bit stereo: 12.3 MB, 12 parts of 1 MiB.
      const wav = makeWav({ seconds: 70 });
      await writeFile(file, wav);
      const count = Math.ceil(wav.length / MiB);
      proxy.reset();
      const first = await upload(releaseId, file, connections, 5);
      expect(first.killed).toBe(true);
      await proxy.settled();
      const heldAfterKill = new Set(proxy.parts.filter((p) => p.status === 200).map((p) => p.part));
      // Cut short by the kill: at most one part per connection, and what of them went is all that is sent twice.
      const lost = proxy.parts.filter((p) => p.status !== 200);
      expect(lost.length).toBeLessThanOrEqual(connections);
      expect(lost.reduce((sum, p) => sum + p.bytes, 0)).toBeLessThanOrEqual(connections * MiB);
      expect(heldAfterKill.size).toBeGreaterThanOrEqual(5);
      expect(heldAfterKill.size).toBeLessThan(count);
      const [held] = await heldParts();
      expect(held?.received_bytes).toBe([...heldAfterKill].reduce((sum, n) => sum + Math.min(MiB, wav.length - (n - 1) * MiB), 0));

      // The checkpoint: owner only, the upload's key and the file's identity, no address, signature or token.
      const dir = join(target.configDir, 'uploads');
      const [name] = readdirSync(dir);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600);
      const text = readFileSync(join(dir, name!), 'utf8');
      expect(JSON.parse(text)).toMatchObject({ key: held!.key, size: wav.length, partSize: MiB });
      for (const secret of ['signature', 'expires=', 'http://', target.token]) expect(text).not.toContain(secret);

      proxy.reset();
      const second = await upload(releaseId, file, connections);
      expect(second.code, second.stderr).toBe(0);
      const resent = proxy.parts.map((p) => p.part);
      // No part the service held is sent again; those in flight at the kill are (at most one per connection).
      expect(resent.filter((n) => heldAfterKill.has(n))).toEqual([]);
      expect(resent.length).toBe(count - heldAfterKill.size);
      const tracks = JSON.parse(second.stdout);
      expect(tracks.at(-1).file).toMatchObject({ key: held!.key, sha256: sha256(wav) });
      expect(readdirSync(dir)).toEqual([]);
    }, 60_000);
  }

  test('release apply killed mid-upload continues it when run again (the upload found by its Idempotency-Key)', async () => {
    const file = join(work, 'apply.wav');
    const wav = makeWav({ seconds: 70 });
    await writeFile(file, wav);
    const yaml = join(work, 'apply.yaml');
    await writeFile(yaml, releaseYaml('RSM-1', { tracks: [{ file, title: 'Applied' }] }));
    const env = cliEnv({ ...target, url: proxy.url }, { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: '2' });
    proxy.reset();
    const run = startRun({ args: ['release', 'apply', yaml, '--json'], env, timeoutMs: 50_000 });
    proxy.onPartAnswered = (n) => void (n === 5 && run.kill());
    expect((await run.result).killed).toBe(true);
    proxy.onPartAnswered = undefined;
    await proxy.settled();
    const held = new Set(proxy.parts.filter((p) => p.status === 200).map((p) => p.part));
    expect(held.size).toBeGreaterThanOrEqual(5);
    expect(held.size).toBeLessThan(Math.ceil(wav.length / MiB));
    proxy.reset();
    const again = startRun({ args: ['release', 'apply', yaml, '--json'], env, timeoutMs: 50_000 });
    const r = await again.result;
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.parts.filter((p) => held.has(p.part) && p.bytes > 0)).toEqual([]);
    const release = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    const tracks = await api({ url: serviceUrl }, target.token, 'GET', `/releases/${release.id ?? release.release_id}/tracks`);
    expect(tracks.body[0].file.sha256).toBe(sha256(wav));
  }, 60_000);

  test('release create --file killed mid-upload: run again, its new draft gets the same upload, only the missing parts sent', async () => {
    const file = join(work, 'create.wav');
    const wav = makeWav({ seconds: 70 });
    await writeFile(file, wav);
    const yaml = join(work, 'create.yaml');
    await writeFile(yaml, releaseYaml('RSM-2', { tracks: [{ file, title: 'Created' }] }));
    const env = cliEnv({ ...target, url: proxy.url }, { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: '2' });
    proxy.reset();
    const run = startRun({ args: ['release', 'create', '--file', yaml, '--json'], env, timeoutMs: 50_000 });
    proxy.onPartAnswered = (n) => void (n === 5 && run.kill());
    expect((await run.result).killed).toBe(true);
    proxy.onPartAnswered = undefined;
    await proxy.settled();
    const held = new Set(proxy.parts.filter((p) => p.status === 200).map((p) => p.part));
    expect(held.size).toBeGreaterThanOrEqual(5);
    proxy.reset();
    // The killed run's draft holds the catalog number: the new one is made without it (a user would delete the old draft).
    await writeFile(yaml, releaseYaml('RSM-3', { tracks: [{ file, title: 'Created' }] }));
    const r = await startRun({ args: ['release', 'create', '--file', yaml, '--json'], env, timeoutMs: 50_000 }).result;
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.parts.filter((p) => held.has(p.part))).toEqual([]);
    const release = JSON.parse(r.stdout);
    expect(release.tracks[0].file.sha256).toBe(sha256(wav));
  }, 60_000);

  test('a file changed between the runs drops its checkpoint and is sent whole', async () => {
    const releaseId = await newRelease();
    const file = join(work, 'changed.wav');
    await writeFile(file, makeWav({ seconds: 70 }));
    proxy.reset();
    const first = await upload(releaseId, file, 2, 4);
    expect(first.killed).toBe(true);
    await proxy.settled();
    // Another take: other samples, the same size.
    const changed = makeWav({ seconds: 70, sampleRate: 44_100 });
    for (let i = 1000; i < changed.length; i += 4096) changed[i] = (changed[i] ?? 0) ^ 0x55;
    await writeFile(file, changed);
    proxy.reset();
    const second = await upload(releaseId, file, 2);
    expect(second.code, second.stderr).toBe(0);
    const count = Math.ceil(changed.length / MiB);
    expect(proxy.parts.map((p) => p.part).sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(JSON.parse(second.stdout).at(-1).file.sha256).toBe(sha256(await readFile(file)));
    // The first take's upload was discarded with its checkpoint: nothing of it holds the quota.
    expect(await heldParts()).toEqual([]);
  }, 60_000);
});
