// `track upload` of files above one part: in parts, several at once, each checked; a corrupt part
// sent again alone; a file of one part in one request; what the checkpoint holds while an upload
// is not attached, and that it goes once it is. Small parts (RELDIST_UPLOAD_PART_SIZE) keep the
// files small. Through a counting proxy (test/helpers/upload-proxy.ts) to the real service.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUploadProxy, type UploadProxy } from '../helpers/upload-proxy.js';
import { useCli, writeWav } from './cli-harness.js';

const cli = useCli();
let work: string;
let proxy: UploadProxy;
let releaseId: number;
const env = { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: '4' };

const sha256Of = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
const through = () => ({ url: proxy.url, env });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-parts-'));
  proxy = await startUploadProxy(cli.server.url);
  const r = await cli.json(['release', 'create', '--type', 'album', '--title', 'Parts', '--artist', 'Nina Vale', '--label', 'Northern Lights Records']);
  releaseId = r.id;
});
afterAll(async () => {
  await proxy.close();
  await rm(work, { recursive: true, force: true });
});

describe('track upload in parts', () => {
  it('sends a file above one part in parts, several at once, each once; the track has the file sha256', async () => {
    const file = join(work, 'long.wav');
    // 60 s of 44.1 kHz 16-bit stereo: 10.6 MB, 11 parts of 1 MiB.
    await writeWav(file, { seconds: 60 });
    proxy.reset();
    const r = await cli.run(['track', 'upload', String(releaseId), file, '--json'], through());
    expect(r.code, r.stderr).toBe(0);
    const parts = proxy.parts.map((p) => p.part).sort((a, b) => a - b);
    expect(parts).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(proxy.maxInFlight).toBeGreaterThan(1);
    expect(proxy.maxInFlight).toBeLessThanOrEqual(4);
    expect(proxy.wholePuts).toBe(0);
    expect(proxy.completions).toBe(1);
    const tracks = JSON.parse(r.stdout);
    expect(tracks.at(-1).file.sha256).toBe(await sha256Of(file));
    // Attached: its checkpoint is gone.
    expect(await readdir(join(cli.configDir, 'uploads')).catch(() => [])).toEqual([]);
  });

  it('a part changed on the way is refused and sent again alone', async () => {
    const file = join(work, 'flip.wav');
    await writeWav(file, { seconds: 40 });
    proxy.reset();
    proxy.corruptRequest = 3;
    const r = await cli.run(['track', 'upload', String(releaseId), file, '--json'], through());
    expect(r.code, r.stderr).toBe(0);
    const flipped = proxy.parts[2]!;
    expect(flipped.status).toBe(422);
    const sent = proxy.parts.map((p) => p.part);
    // Every part once, the flipped one twice.
    expect(sent.filter((n) => n === flipped.part)).toHaveLength(2);
    expect(new Set(sent).size).toBe(sent.length - 1);
    expect(JSON.parse(r.stdout).at(-1).file.sha256).toBe(await sha256Of(file));
  });

  it('a file of one part goes up in one request, as before', async () => {
    const file = join(work, 'short.wav');
    await writeWav(file, { seconds: 31 });
    proxy.reset();
    const r = await cli.run(['track', 'upload', String(releaseId), file, '--json'], { url: proxy.url, env: { RELDIST_UPLOAD_PART_SIZE: '8MiB' } });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.wholePuts).toBe(1);
    expect(proxy.parts).toEqual([]);
    expect(proxy.completions).toBe(0);
  });

  it('--part-size and --connections win over the environment', async () => {
    const file = join(work, 'long.wav');
    proxy.reset();
    const r = await cli.run(['track', 'upload', String(releaseId), file, '--part-size', '2MiB', '--connections', '1', '--allow-duplicate'], through());
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.parts).toHaveLength(6);
    expect(proxy.maxInFlight).toBe(1);
    const bad = await cli.run(['track', 'upload', String(releaseId), file, '--connections', '0'], through());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--connections: from 1 to 8 connections, not "0"');
  });

  it('a bad part size or connection count is a usage error naming the variable, before anything is sent', async () => {
    const file = join(work, 'short.wav');
    proxy.reset();
    const r = await cli.run(['track', 'upload', String(releaseId), file], { url: proxy.url, env: { RELDIST_UPLOAD_PART_SIZE: '100MiB' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('RELDIST_UPLOAD_PART_SIZE: a part size from 1MiB to 64MiB');
    const c = await cli.run(['track', 'upload', String(releaseId), file], { url: proxy.url, env: { RELDIST_UPLOAD_CONNECTIONS: '9' } });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('RELDIST_UPLOAD_CONNECTIONS: from 1 to 8 connections');
    expect(proxy.parts.length + proxy.wholePuts).toBe(0);
  });
});
