// The cover as a file: an upload address, the same signed PUT as a track's, the facts read from
// the bytes (never the declared ones), refusals at upload for what can never pass, and the submit
// checks in words. Images are made with sharp (test/helpers/images.ts), never committed.
import { openDatabase } from '../../src/server/db/open.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeUnattached } from '../../src/server/uploads/retention.js';
import { sha256 } from '../helpers/audio.js';
import { testImages, type TestImages } from '../helpers/images.js';
import { createRelease, submittableRelease } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
let images: TestImages;

beforeAll(async () => {
  [s, images] = await Promise.all([startTestServer(), testImages()]);
  token = s.tokens.label;
});
afterAll(async () => {
  await s.close();
});

async function uploadCover(releaseId: number, bytes: Buffer, filename = 'cover.jpg') {
  const u = await api(s, token, 'POST', `/releases/${releaseId}/artwork/upload-url`, {
    filename,
    content_type: 'image/jpeg',
    size: bytes.length,
    sha256: sha256(bytes),
  });
  expect(u.status).toBe(201);
  const res = await fetch(u.body.upload_url, { method: 'PUT', headers: u.body.headers, body: bytes });
  return { key: u.body.key as string, status: res.status, body: (await res.json()) as any };
}

/** The cover problems a dry-run submit reports. */
async function coverProblems(releaseId: number) {
  const r = await api(s, token, 'POST', `/releases/${releaseId}/submit`, { dry_run: true });
  const problems = (r.body.problems ?? r.body.error?.problems ?? []) as { code: string; severity: string; message: string; path: string }[];
  return problems.filter((p) => p.path.startsWith('artwork'));
}

describe('upload: the facts come from the bytes', () => {
  test('a good cover: facts read, file kept, set as the release cover, submit passes it', async () => {
    const rel = await submittableRelease(s, token);
    const up = await uploadCover(rel.id, images.good);
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      key: up.key,
      state: 'ready',
      format: 'jpg',
      width: 3000,
      height: 3000,
      color_space: 'rgb',
      bit_depth: 8,
      icc_profile: null,
      progressive: false,
      size: images.good.length,
      sha256: sha256(images.good),
    });
    expect(await readdir(join(s.dataDir, 'uploads', 'files'))).toContain(up.key);
    const patched = await api(s, token, 'PATCH', `/releases/${rel.id}/metadata`, { artwork: { file_key: up.key } });
    expect(patched.status).toBe(200);
    expect(patched.body.artwork).toMatchObject({
      verified: true,
      file_key: up.key,
      filename: 'cover.jpg',
      url: null,
      width: 3000,
      sha256: sha256(images.good),
    });
    expect(await coverProblems(rel.id)).toEqual([]);
  });

  test('a PNG named cover.jpg is a PNG; a progressive JPEG and an ICC profile are read', async () => {
    const rel = await createRelease(s, token);
    expect((await uploadCover(rel.id, images.pngBytes, 'cover.jpg')).body).toMatchObject({ format: 'png', state: 'ready' });
    expect((await uploadCover(rel.id, images.progressive)).body).toMatchObject({ format: 'jpg', progressive: true });
    expect((await uploadCover(rel.id, images.withProfile)).body).toMatchObject({ icc_profile: expect.stringMatching(/P3/) });
  });

  test.each([
    ['not an image', 'notAnImage', 'artwork_unreadable', /not an image/],
    ['a truncated JPEG', 'truncated', 'artwork_unreadable', /damaged or cut short/],
    ['an animated GIF', 'animated', 'artwork_animated', /animated \(2 frames\)/],
    ['a decompression bomb (50000 × 50000 claimed)', 'bomb', 'artwork_too_many_pixels', /50000×50000 px, over the 100 megapixel limit/],
  ] as const)('refused at upload: %s', async (_what, image, code, message) => {
    const rel = await createRelease(s, token);
    const before = process.memoryUsage().rss;
    const up = await uploadCover(rel.id, images[image]);
    expect(up.status).toBe(422);
    expect(up.body.error).toMatchObject({ code, message: expect.stringMatching(message) });
    // Nothing decoded at full size (the bomb would need 7.5 GB): the process grew by far less than one such image.
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 ** 2);
    expect(await readdir(join(s.dataDir, 'uploads', 'files'))).not.toContain(up.key);
    const patched = await api(s, token, 'PATCH', `/releases/${rel.id}/metadata`, { artwork: { file_key: up.key } });
    expect(patched.status).toBe(422);
    expect(JSON.stringify(patched.body.error)).toMatch(new RegExp(`artwork\\.file_key.*the upload was refused: ${code}`));
  });

  test('over the size limit: no address is given', async () => {
    const rel = await createRelease(s, token);
    const u = await api(s, token, 'POST', `/releases/${rel.id}/artwork/upload-url`, { filename: 'huge.png', size: 51 * 1024 ** 2 });
    expect(u.status).toBe(422);
    expect(JSON.stringify(u.body)).toMatch(/at most 50 MiB/);
  });

  test("another release's upload, a track's upload or a create with a file_key are refused", async () => {
    const a = await createRelease(s, token);
    const b = await createRelease(s, token);
    const up = await uploadCover(a.id, images.good);
    const other = await api(s, token, 'PATCH', `/releases/${b.id}/metadata`, { artwork: { file_key: up.key } });
    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).toMatch(/unknown cover upload key for this release/);
    const created = await api(s, token, 'POST', '/releases', {
      type: 'single',
      title: 'X',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'L',
      artwork: { file_key: up.key },
    });
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.body)).toMatch(/create the release, then ask for POST …\/artwork\/upload-url/);
  });
});

describe('retention and quota', () => {
  test('the cover a release names is kept; a cover upload nothing names is unattached, removed like any other', async () => {
    const rel = await createRelease(s, token);
    const kept = await uploadCover(rel.id, images.good);
    const spare = await uploadCover(rel.id, images.progressive);
    expect((await api(s, token, 'PATCH', `/releases/${rel.id}/metadata`, { artwork: { file_key: kept.key } })).status).toBe(200);
    const db = openDatabase(s.dataDir);
    try {
      // The look-up from an upload to the cover naming it is an index search, not a scan of the releases.
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT 1 FROM releases r WHERE json_extract(r.data, '$.artwork.file_key') = ?")
        .all('x')
        .map((r: any) => r.detail);
      expect(plan.join(' ')).toMatch(/USING (COVERING )?INDEX releases_artwork_key/);
      removeUnattached(db, s.dataDir, undefined);
    } finally {
      db.close();
    }
    const files = await readdir(join(s.dataDir, 'uploads', 'files'));
    expect(files).toContain(kept.key);
    expect(files).not.toContain(spare.key);
    expect((await api(s, token, 'GET', `/releases/${rel.id}`)).body.artwork).toMatchObject({ verified: true, file_key: kept.key });
  });
});

describe('submit checks: the rules, in words', () => {
  test.each([
    ['too small', 'tooSmall', [['artwork_too_small', 'error', '1400×1400 px: a cover must be at least 3000×3000 px']]],
    [
      'not square (and its short side too short)',
      'notSquare',
      [
        ['artwork_not_square', 'error', '3000×2000 px: a cover must be square'],
        ['artwork_too_small', 'error', '3000×2000 px: a cover must be at least 3000×3000 px'],
      ],
    ],
    ['CMYK', 'cmyk', [['artwork_color_space', 'error', 'CMYK: export it as RGB']]],
    ['grayscale', 'grayscale', [['artwork_color_space', 'error', 'grayscale: export it as RGB']]],
    ['16-bit PNG', 'png16', [['artwork_bit_depth', 'warning', '16 bits per channel: some stores take only 8']]],
    ['progressive JPEG', 'progressive', []],
  ] as const)('%s', async (_what, image, expected) => {
    const rel = await submittableRelease(s, token);
    const up = await uploadCover(rel.id, images[image]);
    expect(up.status).toBe(200);
    expect((await api(s, token, 'PATCH', `/releases/${rel.id}/metadata`, { artwork: { file_key: up.key } })).status).toBe(200);
    const found = (await coverProblems(rel.id)).map((p) => [p.code, p.severity, p.message]);
    expect(found).toHaveLength(expected.length);
    expected.forEach(([code, severity, message], i) => {
      expect(found[i]).toEqual([code, severity, expect.stringContaining(message)]);
    });
  });

  test('a declared-URL cover (older clients) stays accepted and readable, checked as "cover not verified"', async () => {
    const declared = { url: 'https://cdn.example/art/42.jpg', width: 3000, height: 3000, format: 'jpg', color_space: 'rgb' };
    const rel = await submittableRelease(s, token, { artwork: declared });
    expect(rel.artwork).toEqual({
      ...declared,
      verified: false,
      file_key: null,
      filename: null,
      bit_depth: null,
      icc_profile: null,
      progressive: null,
      size: null,
      sha256: null,
    });
    expect(await coverProblems(rel.id)).toEqual([
      expect.objectContaining({ code: 'artwork_not_verified', severity: 'warning', message: expect.stringMatching(/^cover not verified/) }),
    ]);
    // A warning: the release still submits.
    expect((await api(s, token, 'POST', `/releases/${rel.id}/submit`, {})).status).toBe(200);
  });
});
