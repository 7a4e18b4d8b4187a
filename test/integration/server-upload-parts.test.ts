// Uploads in parts against the real service: parts in any order and at once, each checked against
// its Upload-Checksum, the status a resuming client asks for, the whole file's sha256 checked at
// completion, a resumed address, the quota, the expiry of one that stops moving, list and discard.
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeWav, sha256 } from '../helpers/audio.js';
import { createRelease } from '../helpers/releases.js';
import { api, makeTempDataDir, startTestServer, type TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;
let s: TestServer;
let token: string;
let releaseId: number;
// 44.1 kHz 16-bit stereo, 30 s: 5.3 MB, six parts of 1 MiB.
const wav = makeWav({ seconds: 30 });

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
  releaseId = (await createRelease(s, token)).id;
});
afterAll(async () => {
  await s.close();
});

const digestOf = (bytes: Uint8Array) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(bytes) >>> 0);
  return `crc32 ${b.toString('base64')}`;
};
const partBytes = (n: number, partSize = MiB) => wav.subarray((n - 1) * partSize, Math.min(wav.length, n * partSize));
const partUrl = (address: any, n: number) => address.parts.part_url.replace('{part}', String(n));

async function ask(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
    filename: 'parts.wav',
    content_type: 'audio/wav',
    size: wav.length,
    part_size: MiB,
    ...extra,
  });
  expect(r.status).toBe(201);
  return r.body;
}

async function putPart(address: any, n: number, bytes = partBytes(n), digest = digestOf(partBytes(n))) {
  const res = await fetch(partUrl(address, n), { method: 'PUT', headers: { 'upload-checksum': digest }, body: bytes });
  return { status: res.status, body: (await res.json()) as any };
}

const status = async (address: any) => (await (await fetch(address.upload_url)).json()) as any;
const complete = async (address: any, body: unknown = { sha256: sha256(wav) }) => {
  const res = await fetch(address.parts.complete_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

describe('an upload in parts', () => {
  test('parts at once and out of order, a corrupt part refused alone, then completed, probed and attached', async () => {
    const a = await ask();
    expect(a.parts).toMatchObject({ part_size: MiB, count: 6, state: 'receiving', received: [] });
    expect(a.parts.part_url).toContain(`/uploads/${a.key}/parts/{part}?expires=`);

    // Parts 6, 4 and 2 at once.
    const first = await Promise.all([6, 4, 2].map((n) => putPart(a, n)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(first[0]!.body).toEqual({ part: 6, size: wav.length - 5 * MiB, checksum: digestOf(partBytes(6)) });

    // A byte flipped on the way: refused, nothing of it kept; the other parts stay.
    const bad = Buffer.from(partBytes(3));
    bad[100] = (bad[100] ?? 0) ^ 0xff;
    const refused = await putPart(a, 3, bad);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('upload_part_mismatch');
    const st = await status(a);
    expect(st).toMatchObject({ key: a.key, state: 'receiving', part_size: MiB, received_bytes: 2 * MiB + (wav.length - 5 * MiB) });
    expect(st.parts.map((p: any) => p.part)).toEqual([2, 4, 6]);

    // Not complete yet: says which parts are missing.
    const early = await complete(a);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('upload_incomplete');
    expect(early.body.error.message).toContain('missing: 1, 3, 5');

    // A part held already, sent again (its answer was lost): answered at once.
    expect((await putPart(a, 2)).status).toBe(200);
    // A sha256 works too; no checksum at all is refused.
    const bySha = await putPart(a, 1, partBytes(1), `sha256 ${Buffer.from(sha256(partBytes(1)), 'hex').toString('base64')}`);
    expect(bySha.status).toBe(200);
    const bare = await fetch(partUrl(a, 1), { method: 'PUT', body: partBytes(1) });
    expect(bare.status).toBe(400);
    // The wrong length for the part.
    expect((await putPart(a, 1, partBytes(1).subarray(0, 1000), digestOf(partBytes(1).subarray(0, 1000)))).status).toBe(422);

    for (const n of [3, 5]) expect((await putPart(a, n)).status).toBe(200);
    const done = await complete(a);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ key: a.key, state: 'ready', size: wav.length, sha256: sha256(wav), format: 'wav', channels: 2 });
    // Asked again (its answer lost): the same answer.
    expect(await complete(a)).toEqual(done);
    expect(await status(a)).toMatchObject({ state: 'ready', received_bytes: wav.length, parts: [] });
    expect(existsSync(join(s.dataDir, 'uploads', 'parts', a.key))).toBe(false);

    const t = await api(s, token, 'PUT', `/releases/${releaseId}/tracks`, [
      { file_key: a.key, title: 'Parts', contributors: [{ name: 'N', role: 'composer' }] },
    ]);
    expect(t.status).toBe(200);
    expect(t.body.tracks[0].file).toMatchObject({ key: a.key, sha256: sha256(wav), state: 'ready' });
  });

  test('the whole file not matching the declared sha256 refuses completion and drops the parts', async () => {
    const a = await ask();
    for (let n = 1; n <= 6; n++) expect((await putPart(a, n)).status).toBe(200);
    const wrong = await complete(a, { sha256: 'f'.repeat(64) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('upload_mismatch');
    expect(wrong.body.error.message).toContain(`the whole file's sha256 is ${sha256(wav)}, not the declared ${'f'.repeat(64)}`);
    expect(await status(a)).toMatchObject({ state: 'receiving', received_bytes: 0, parts: [] });
    // No digest at all (none declared when it was asked for): said so.
    expect((await complete(a, {})).status).toBe(400);
  });

  test('a resumed upload: the same key, a new address, the parts held; another file or release gets a new upload', async () => {
    const a = await ask();
    expect((await putPart(a, 1)).status).toBe(200);
    expect((await putPart(a, 2)).status).toBe(200);
    const again = await ask({ resume_key: a.key });
    expect(again.key).toBe(a.key);
    expect(again.parts.received.map((p: any) => p.part)).toEqual([1, 2]);
    expect(again.parts.received[0]).toEqual({ part: 1, size: MiB, checksum: digestOf(partBytes(1)) });
    for (let n = 3; n <= 6; n++) expect((await putPart(again, n)).status).toBe(200);
    expect((await complete(again)).status).toBe(200);

    // Another part size, or another account's: not that upload.
    expect((await ask({ resume_key: a.key, part_size: 2 * MiB })).key).not.toBe(a.key);
    const artists = await api(s, s.tokens.artist, 'POST', '/releases', { title: 'x', type: 'single' });
    if (artists.status === 201) {
      const theirs = await api(s, s.tokens.artist, 'POST', `/releases/${artists.body.id}/tracks/upload-url`, {
        filename: 'parts.wav',
        content_type: 'audio/wav',
        size: wav.length,
        part_size: MiB,
        resume_key: a.key,
      });
      expect(theirs.body.key).not.toBe(a.key);
    }
    // Complete and named by nothing: resumed as complete (a run killed before it attached the file).
    const ready = await ask({ resume_key: a.key });
    expect(ready).toMatchObject({ key: a.key, parts: { state: 'ready' } });
    // Asked for another release of the account (`release create --file` again makes a new draft): it moves there.
    const other = (await createRelease(s, token)).id;
    const moved = await api(s, token, 'POST', `/releases/${other}/tracks/upload-url`, {
      filename: 'parts.wav',
      content_type: 'audio/wav',
      size: wav.length,
      part_size: MiB,
      resume_key: a.key,
    });
    expect(moved.body.key).toBe(a.key);
    const attach = await api(s, token, 'PUT', `/releases/${other}/tracks`, [
      { file_key: a.key, title: 'Moved', contributors: [{ name: 'N', role: 'composer' }] },
    ]);
    expect(attach.status).toBe(200);
    // Named by a track now: a new upload.
    expect((await ask({ resume_key: a.key })).key).not.toBe(a.key);
  });

  test('no completion while a part sent again is arriving: the complete file never changes under its digest', async () => {
    const a = await ask();
    expect((await Promise.all([1, 2, 3, 4, 5, 6].map((n) => putPart(a, n)))).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Part 6 sent again with other bytes (by another client sharing the upload), its first bytes only, the rest held back
    // while the completion is asked for.
    const last = Buffer.from(partBytes(6));
    last[10] = (last[10] ?? 0) ^ 0xff;
    const req = request(partUrl(a, 6), {
      method: 'PUT',
      headers: { 'upload-checksum': digestOf(last), 'content-length': String(last.length), expect: '100-continue' },
    });
    // The service says 100 Continue once it has taken the part in: from then on it is arriving.
    const admitted = new Promise<void>((resolve) => req.on('continue', () => resolve()));
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    await admitted;
    req.write(last.subarray(0, 1000));
    const early = await complete(a);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('upload_in_progress');
    req.end(last.subarray(1000));
    expect(await answered).toBe(200);
    // The right bytes again, then the completion: the file is the one its digest names.
    expect((await putPart(a, 6)).status).toBe(200);
    expect((await complete(a)).status).toBe(200);
  });

  test('a completion body is held to the contract: an unknown field or a malformed sha256 is 422 validation_failed', async () => {
    const a = await ask();
    const unknown = await complete(a, { sha256: sha256(wav), extra: 1 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('validation_failed');
    const bad = await complete(a, { sha256: 'ABC' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.sha256).toBeDefined();
  });

  test('part sizes out of bounds are refused at the address', async () => {
    for (const part_size of [MiB - 1, 64 * MiB + 1]) {
      const r = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
        filename: 'x.wav',
        content_type: 'audio/wav',
        size: wav.length,
        part_size,
      });
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.error.fields)).toEqual(['part_size']);
    }
  });
});

describe('an upload in parts across a restart, or sent whole after all', () => {
  test('parts sent to one process and completed by the next: the whole file is read at the completion, and checked', async () => {
    const dataDir = await makeTempDataDir();
    const first = await startTestServer({ dataDir });
    let second: TestServer | undefined;
    try {
      const r = (await createRelease(first, first.tokens.label)).id;
      const body = { filename: 'restart.wav', content_type: 'audio/wav', size: wav.length, part_size: MiB };
      const a = (await api(first, first.tokens.label, 'POST', `/releases/${r}/tracks/upload-url`, body)).body;
      for (const n of [1, 2, 3]) expect((await putPart(a, n)).status).toBe(200);
      await first.close();
      second = await startTestServer({ dataDir });
      // Asked again on the new process (its port differs): the parts held are there.
      const again = (await api(second, second.tokens.label, 'POST', `/releases/${r}/tracks/upload-url`, { ...body, resume_key: a.key })).body;
      expect(again.parts.received.map((p: any) => p.part)).toEqual([1, 2, 3]);
      for (const n of [4, 5, 6]) expect((await putPart(again, n)).status).toBe(200);
      expect((await complete(again, { sha256: 'e'.repeat(64) })).status).toBe(422);
      for (let n = 1; n <= 6; n++) expect((await putPart(again, n)).status).toBe(200);
      const done = await complete(again);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ key: a.key, sha256: sha256(wav), state: 'ready' });
    } finally {
      await second?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('an address asked for in parts still takes the whole file in one PUT; the parts it held go', async () => {
    const a = await ask();
    expect((await putPart(a, 2)).status).toBe(200);
    const put = await fetch(a.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: wav });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ key: a.key, sha256: sha256(wav), state: 'ready' });
    expect(await status(a)).toMatchObject({ state: 'ready', parts: [] });
    expect(existsSync(join(s.dataDir, 'uploads', 'parts', a.key))).toBe(false);
  });
});

describe("the account's uploads nothing names", () => {
  test('listed with what they hold and until when; discarded by key or all those arriving; idempotent', async () => {
    const r = (await createRelease(s, token)).id;
    const a = (
      await api(s, token, 'POST', `/releases/${r}/tracks/upload-url`, { filename: 'held.wav', content_type: 'audio/wav', size: wav.length, part_size: MiB })
    ).body;
    expect((await putPart(a, 1)).status).toBe(200);
    const list = await api(s, token, 'GET', '/uploads?state=receiving');
    expect(list.status).toBe(200);
    const mine = list.body.find((u: any) => u.key === a.key);
    expect(mine).toMatchObject({
      release_id: r,
      kind: 'audio',
      filename: 'held.wav',
      size: wav.length,
      received_bytes: MiB,
      state: 'receiving',
      part_size: MiB,
    });
    expect(Date.parse(mine.expires_at) - Date.parse(mine.updated_at)).toBe(24 * 3_600_000);
    // Complete ones (here a whole PUT) are listed too without the filter, never with state=receiving.
    const whole = (await api(s, token, 'POST', `/releases/${r}/tracks/upload-url`, { filename: 'whole.wav', content_type: 'audio/wav', size: wav.length }))
      .body;
    expect((await fetch(whole.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: wav })).status).toBe(200);
    const all = await api(s, token, 'GET', '/uploads');
    expect(all.body.find((u: any) => u.key === whole.key)).toMatchObject({
      state: 'complete',
      received_bytes: wav.length,
      part_size: null,
      filename: 'whole.wav',
    });
    expect(list.body.every((u: any) => u.state === 'receiving')).toBe(true);
    // Others' uploads are not listed.
    expect((await api(s, s.tokens.artist, 'GET', '/uploads')).body).toEqual([]);

    const gone = await api(s, token, 'POST', '/uploads/discard', { keys: [a.key] });
    expect(gone.status).toBe(200);
    expect(gone.body.discarded.map((u: any) => u.key)).toEqual([a.key]);
    expect(existsSync(join(s.dataDir, 'uploads', 'parts', a.key))).toBe(false);
    expect((await putPart(a, 2)).status).toBe(403);
    const again = await api(s, token, 'POST', '/uploads/discard', { keys: [a.key] });
    expect(again.body).toEqual({ discarded: [], not_found: [a.key], attached: [] });

    // Attached: kept.
    const tracks = await api(s, token, 'GET', `/releases/${releaseId}/tracks`);
    const attachedKey = tracks.body.find((t: any) => t.file)?.file.key;
    expect(attachedKey).toMatch(/^upl_/);
    expect((await api(s, token, 'POST', '/uploads/discard', { keys: [attachedKey] })).body).toMatchObject({ attached: [attachedKey], discarded: [] });

    const b = (
      await api(s, token, 'POST', `/releases/${r}/tracks/upload-url`, { filename: 'b.wav', content_type: 'audio/wav', size: wav.length, part_size: MiB })
    ).body;
    expect((await putPart(b, 3)).status).toBe(200);
    const arriving = await api(s, token, 'POST', '/uploads/discard', { state: 'receiving' });
    expect(arriving.body.discarded.map((u: any) => u.key)).toContain(b.key);
    expect((await api(s, token, 'GET', '/uploads?state=receiving')).body).toEqual([]);
  });
});

describe('quota and expiry of uploads in parts', () => {
  test('held parts count against the quota; an upload that stops moving is deleted with its parts after the expiry', async () => {
    const q = await startTestServer({ uploadLimits: { accountBytes: 3 * MiB, unattachedExpiryMs: 1500 } });
    try {
      const r = (await createRelease(q, q.tokens.label)).id;
      const a = (
        await api(q, q.tokens.label, 'POST', `/releases/${r}/tracks/upload-url`, {
          filename: 'q.wav',
          content_type: 'audio/wav',
          size: wav.length,
          part_size: MiB,
        })
      ).body;
      const put = (n: number) =>
        fetch(a.parts.part_url.replace('{part}', String(n)), { method: 'PUT', headers: { 'upload-checksum': digestOf(partBytes(n)) }, body: partBytes(n) });
      expect((await put(1)).status).toBe(200);
      expect((await put(2)).status).toBe(200);
      // 2 MiB held + 1 MiB arriving is the 3 MiB allowed; a fourth is over.
      expect((await put(3)).status).toBe(200);
      const over = await put(4);
      expect(over.status).toBe(413);
      expect(((await over.json()) as any).error.code).toBe('upload_quota_exceeded');

      // Nothing moves for longer than the expiry: the sweep deletes the upload and its parts.
      const parts = join(q.dataDir, 'uploads', 'parts', a.key);
      expect(existsSync(parts)).toBe(true);
      for (let i = 0; i < 40 && existsSync(parts); i++) await new Promise((done) => setTimeout(done, 250));
      expect(existsSync(parts)).toBe(false);
      expect((await api(q, q.tokens.label, 'GET', '/uploads')).body).toEqual([]);
      expect((await fetch(a.upload_url)).status).toBe(403);
    } finally {
      await q.close();
    }
  });
});
