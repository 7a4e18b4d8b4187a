// Track uploads end to end: signed address, streamed PUT, size/sha256 checks, the audio probe
// and its rules, attaching files to tracks. Audio is generated here, never committed.
import Database from 'better-sqlite3';
import { readdir } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { signUpload } from '../../src/server/uploads/sign.js';
import { makeMp3Like, makeWav, sha256 } from '../helpers/audio.js';
import { createRelease, upload, validWav } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
let releaseId: number;

beforeAll(async () => {
  s = await startTestServer();
  token = s.tokens.label;
  releaseId = (await createRelease(s, token)).id;
});
afterAll(async () => {
  await s.close();
});

async function filesOnDisk(): Promise<{ files: string[]; tmp: string[] }> {
  const list = async (d: string) => readdir(join(s.dataDir, 'uploads', d)).catch(() => [] as string[]);
  return { files: await list('files'), tmp: await list('tmp') };
}

describe('a good upload', () => {
  test('upload-url → PUT → probe facts; attach with PUT tracks; file in place', async () => {
    const wav = validWav();
    const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
      filename: 'northern-sky.wav',
      content_type: 'audio/wav',
      size: wav.length,
      sha256: sha256(wav),
    });
    expect(u.status).toBe(201);
    expect(u.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) } });
    expect(u.body.upload_url.startsWith(`${s.url}/uploads/${u.body.key}?expires=`)).toBe(true);
    expect(Date.parse(u.body.expires_at)).toBeGreaterThan(Date.now());
    const put = await fetch(u.body.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: wav });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      key: u.body.key,
      state: 'ready',
      format: 'wav',
      sample_rate: 44_100,
      bit_depth: 16,
      channels: 2,
      duration_ms: 30_000,
      size: wav.length,
    });
    expect((await filesOnDisk()).files).toContain(u.body.key);

    const t = await api(s, token, 'PUT', `/releases/${releaseId}/tracks`, [
      { file_key: u.body.key, title: 'Northern Sky', contributors: [{ name: 'N', role: 'composer' }] },
    ]);
    expect(t.status).toBe(200);
    expect(t.body.tracks).toHaveLength(1);
    expect(t.body.tracks[0]).toMatchObject({ position: 1, disc: 1, title: 'Northern Sky', artists: t.body.artists });
    expect(t.body.tracks[0].file).toMatchObject({
      key: u.body.key,
      filename: 'northern-sky.wav',
      format: 'wav',
      channels: 2,
      state: 'ready',
      sha256: sha256(wav),
    });

    const list = await api(s, token, 'GET', `/releases/${releaseId}/tracks`);
    expect(list.body).toEqual(t.body.tracks);
    const one = await api(s, token, 'GET', `/releases/${releaseId}/tracks/${t.body.tracks[0].id}`);
    expect(one.body).toEqual(t.body.tracks[0]);
    expect((await api(s, token, 'GET', `/releases/${releaseId}/tracks/999999`)).status).toBe(404);
  });

  test('24-bit 48 kHz is accepted; PATCH …/file swaps one track file; a plain array body works', async () => {
    const rel = await createRelease(s, token);
    const a = await upload(s, token, rel.id, validWav());
    const b = await upload(s, token, rel.id, makeWav({ seconds: 31, sampleRate: 48_000, bitDepth: 24 }));
    expect(b.put.status).toBe(200);
    expect(b.put.body).toMatchObject({ sample_rate: 48_000, bit_depth: 24 });
    const t = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [{ file_key: a.key, title: 'One' }]);
    const trackId = t.body.tracks[0].id;
    const p = await api(s, token, 'PATCH', `/releases/${rel.id}/tracks/${trackId}/file`, { file_key: b.key });
    expect(p.status).toBe(200);
    expect(p.body.tracks[0]).toMatchObject({ id: trackId, title: 'One' });
    expect(p.body.tracks[0].file).toMatchObject({ key: b.key, bit_depth: 24 });
    expect((await api(s, token, 'PATCH', `/releases/${rel.id}/tracks/777777/file`, { file_key: b.key })).status).toBe(404);
  });

  test('extensible PCM (what ffmpeg and sox write for 24 bit and above 48 kHz) is accepted like legacy PCM', async () => {
    for (const [sampleRate, bitDepth] of [
      [48_000, 24],
      [96_000, 24],
      [44_100, 16],
    ] as const) {
      const up = await upload(s, token, releaseId, makeWav({ seconds: 31, sampleRate, bitDepth, extensible: true }));
      expect(up.put.status, JSON.stringify(up.put.body)).toBe(200);
      expect(up.put.body).toMatchObject({ format: 'wav', sample_rate: sampleRate, bit_depth: bitDepth, channels: 2, duration_ms: 31_000 });
    }
  });

  test('the track list: ids keep tracks, omitted tracks go, positions must be contiguous, keys must be ready and of this release', async () => {
    const rel = await createRelease(s, token);
    const a = await upload(s, token, rel.id, validWav());
    const first = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, {
      tracks: [{ file_key: a.key, title: 'Keep Me', isrc: 'us-skg-19-12345' }, { title: 'Drop Me' }],
    });
    expect(first.body.tracks.map((t: any) => [t.position, t.title])).toEqual([
      [1, 'Keep Me'],
      [2, 'Drop Me'],
    ]);
    expect(first.body.tracks[0].isrc).toBe('USSKG1912345');
    const kept = first.body.tracks[0];
    const second = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [{ title: 'New' }, { id: kept.id, title: 'Keep Me' }]);
    expect(second.status).toBe(200);
    expect(second.body.tracks.map((t: any) => t.title)).toEqual(['New', 'Keep Me']);
    expect(second.body.tracks[1]).toMatchObject({ id: kept.id, position: 2, isrc: 'USSKG1912345' });
    expect(second.body.tracks[1].file.key).toBe(a.key);

    const gaps = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [
      { title: 'A', position: 1 },
      { title: 'B', position: 3 },
    ]);
    expect(gaps.status).toBe(422);
    expect(Object.keys(gaps.body.error.fields)).toEqual(['tracks.1.position']);
    const other = await createRelease(s, token);
    const foreign = await upload(s, token, other.id, validWav());
    const wrongKey = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [
      { title: 'A', file_key: foreign.key },
      { title: 'B', file_key: 'upl_nope' },
      { id: 999999, title: 'C' },
    ]);
    expect(wrongKey.status).toBe(422);
    expect(Object.keys(wrongKey.body.error.fields).sort()).toEqual(['tracks.0.file_key', 'tracks.1.file_key', 'tracks.2.id']);
    const twice = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, [
      { title: 'A', file_key: a.key },
      { title: 'B', file_key: a.key },
    ]);
    expect(Object.keys(twice.body.error.fields)).toEqual(['tracks.1.file_key']);
    // The failed replacements changed nothing.
    expect((await api(s, token, 'GET', `/releases/${rel.id}/tracks`)).body).toEqual(second.body.tracks);
  });
});

describe('refused uploads leave nothing behind', () => {
  const cases: [string, () => Buffer, number, string][] = [
    ['not audio at all', () => Buffer.alloc(200_000, 'not audio, just text. '), 422, 'audio_unrecognized'],
    ['an MP3 named .wav', () => makeMp3Like(), 422, 'audio_format_not_accepted'],
    ['IEEE float', () => makeWav({ encoding: 'float', bitDepth: 32, seconds: 30 }), 422, 'audio_format_not_accepted'],
    ['extensible IEEE float', () => makeWav({ encoding: 'float', extensible: true, bitDepth: 32, seconds: 30 }), 422, 'audio_format_not_accepted'],
    ['mono', () => makeWav({ channels: 1, seconds: 30 }), 422, 'audio_not_stereo'],
    ['too short', () => makeWav({ seconds: 10 }), 422, 'audio_too_short'],
    ['8 bit', () => makeWav({ bitDepth: 8, seconds: 30 }), 422, 'audio_bit_depth_not_accepted'],
    ['22.05 kHz', () => makeWav({ sampleRate: 22_050, seconds: 30 }), 422, 'audio_sample_rate_not_accepted'],
    // The length is measured from the samples present, not believed from the header.
    ['a header promising 30 s over 1 s of samples', () => makeWav({ seconds: 1, claimedDataBytes: 30 * 44_100 * 4 }), 422, 'audio_too_short'],
  ];
  for (const [name, make, status, code] of cases) {
    test(`${name}: ${status} ${code}`, async () => {
      const before = await filesOnDisk();
      const up = await upload(s, token, releaseId, make(), { filename: 'x.wav' });
      expect(up.put.status).toBe(status);
      expect(up.put.body.error.code).toBe(code);
      expect(up.put.body.error.message.length).toBeGreaterThan(10);
      // Formats are named in words, never by their WAVE format tag.
      expect(up.put.body.error.message).not.toMatch(/non-PCM \(\d+\)|65534/);
      const after = await filesOnDisk();
      expect(after.files.sort()).toEqual(before.files.sort());
      expect(after.tmp).toEqual([]);
      // And the key cannot be attached.
      const t = await api(s, token, 'PUT', `/releases/${releaseId}/tracks`, [{ title: 'X', file_key: up.key }]);
      expect(t.status).toBe(422);
      expect(t.body.error.fields['tracks.0.file_key'][0]).toContain(code);
    });
  }

  test('fewer bytes than declared, or a different sha256: 422 upload_mismatch; a correct retry then succeeds', async () => {
    const wav = validWav();
    const short = await upload(s, token, releaseId, wav.subarray(0, wav.length - 100), { size: wav.length, sha256: sha256(wav) });
    expect(short.put.status).toBe(422);
    expect(short.put.body.error.code).toBe('upload_mismatch');
    expect(short.put.body.error.message).toContain('declared');
    const tampered = Buffer.from(wav);
    tampered[1000] = tampered[1000]! ^ 0xff;
    const wrongSha = await upload(s, token, releaseId, tampered, { sha256: sha256(wav) });
    expect(wrongSha.put.status).toBe(422);
    expect(wrongSha.put.body.error.message).toContain('sha256');
    expect((await filesOnDisk()).tmp).toEqual([]);
    const retry = await fetch(wrongSha.uploadUrl, { method: 'PUT', body: wav });
    expect(retry.status).toBe(200);
  });

  test('more bytes than declared are cut off: the upload is refused', async () => {
    const wav = validWav();
    const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
      filename: 'a.wav',
      content_type: 'audio/wav',
      size: 1000,
      sha256: sha256(wav.subarray(0, 1000)),
    });
    const status = await fetch(u.body.upload_url, { method: 'PUT', body: wav }).then(
      (r) => r.status,
      () => 'connection closed',
    );
    expect([422, 'connection closed']).toContain(status);
    expect((await filesOnDisk()).files).not.toContain(u.body.key);
    expect((await filesOnDisk()).tmp).toEqual([]);
  });

  test('lossy content types are refused before any byte is sent', async () => {
    const res = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
      filename: 'a.mp3',
      content_type: 'audio/mpeg',
      size: 1000,
      sha256: 'a'.repeat(64),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('audio_format_not_accepted');
  });
});

describe('the upload address', () => {
  async function address() {
    const wav = validWav();
    const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
      filename: 'a.wav',
      content_type: 'audio/wav',
      size: wav.length,
      sha256: sha256(wav),
    });
    return { wav, url: new URL(u.body.upload_url), key: u.body.key as string };
  }

  test('a tampered signature, expiry or key is 403 upload_signature_invalid', async () => {
    const { wav, url } = await address();
    const sig = url.searchParams.get('signature')!;
    const variants = [
      (u: URL) => u.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u: URL) => u.searchParams.delete('signature'),
      (u: URL) => (u.pathname = '/uploads/upl_00000000000000000000000000000000'),
      (u: URL) => (u.pathname = '/uploads/..%2F..%2Freldist.sqlite'),
    ];
    for (const change of variants) {
      const u = new URL(url);
      change(u);
      const res = await fetch(u, { method: 'PUT', body: wav });
      expect(res.status, u.toString()).toBe(403);
      expect(((await res.json()) as any).error.code).toBe('upload_signature_invalid');
    }
  });

  // The first answer lost (a proxy that dropped it), an old client PUTs the same address again.
  test('a PUT retried to a complete address answers what the first did, once; with or without a declared sha256', async () => {
    for (const declare of [true, false]) {
      const wav = validWav();
      const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
        filename: 'again.wav',
        content_type: 'audio/wav',
        size: wav.length,
        ...(declare ? { sha256: sha256(wav) } : {}),
      });
      expect(u.status).toBe(201);
      const first = await fetch(u.body.upload_url, { method: 'PUT', body: wav });
      expect(first.status).toBe(200);
      const firstBody = await first.json();
      const cursor = (await api(s, token, 'GET', '/events?last=1')).body.cursor;
      const again = await fetch(u.body.upload_url, { method: 'PUT', body: wav });
      expect(again.status, `declared: ${declare}`).toBe(200);
      expect(await again.json()).toEqual(firstBody);
      // Recorded once: the retry adds no upload event.
      expect((await api(s, token, 'GET', `/events?after=${cursor}`)).body.data).toEqual([]);
      // Other bytes to it: refused (not the declared digest, or not the complete upload's); the file stays the first one.
      const other = Buffer.from(validWav());
      other.writeUInt8(other.readUInt8(other.length - 1) ^ 0xff, other.length - 1);
      const changed = await fetch(u.body.upload_url, { method: 'PUT', body: other });
      expect(((await changed.json()) as any).error.code).toBe(declare ? 'upload_mismatch' : 'state_conflict');
      const t = await api(s, token, 'PUT', `/releases/${releaseId}/tracks`, [{ file_key: u.body.key, title: 'Again' }]);
      expect(t.body.tracks.at(-1).file.sha256).toBe(sha256(wav));
    }
  });

  test('an expired address (correctly signed) is 410 upload_expired', async () => {
    const { wav, url, key } = await address();
    const db = new Database(join(s.dataDir, 'reldist.sqlite'), { readonly: true });
    const secret = Buffer.from((db.prepare("SELECT value FROM meta WHERE key = 'upload_secret'").get() as { value: string }).value, 'hex');
    db.close();
    const expires = Math.floor(Date.now() / 1000) - 60;
    const signature = signUpload(secret, { key, expires, size: wav.length, sha256: sha256(wav) });
    const res = await fetch(`${s.url}/uploads/${key}?expires=${expires}&signature=${signature}`, { method: 'PUT', body: wav });
    expect(res.status).toBe(410);
    expect(((await res.json()) as any).error.code).toBe('upload_expired');
    // The same key with its real (future) expiry still works.
    expect((await fetch(url, { method: 'PUT', body: wav })).status).toBe(200);
  });

  test('deleting a release removes its uploaded files', async () => {
    const rel = await createRelease(s, token);
    const up = await upload(s, token, rel.id, validWav());
    expect((await filesOnDisk()).files).toContain(up.key);
    expect((await api(s, token, 'DELETE', `/releases/${rel.id}`)).status).toBe(200);
    expect((await filesOnDisk()).files).not.toContain(up.key);
    expect((await fetch(up.uploadUrl, { method: 'PUT', body: validWav() })).status).toBe(403);
  });
});

describe('one address shared by several clients (If-None-Match: *)', () => {
  /** A PUT asking with Expect: 100-continue; `sendBody` decides what to send once the service says 100. */
  function putExpecting(
    url: URL,
    size: number,
    sendBody: (req: ClientRequest) => void,
  ): Promise<{ status: number; continued: boolean; body: any; retryAfter: string | undefined }> {
    return new Promise((resolve, reject) => {
      let continued = false;
      const req = httpRequest(url, {
        method: 'PUT',
        headers: { 'content-type': 'audio/wav', 'content-length': String(size), expect: '100-continue', 'if-none-match': '*' },
      });
      req.on('continue', () => {
        continued = true;
        sendBody(req);
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, body: JSON.parse(text), retryAfter: res.headers['retry-after'] }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
  }

  test('the same key asks for the same address; bytes arriving: 409 upload_in_progress; complete: 412 before any byte', async () => {
    const wav = validWav();
    const ask = () =>
      api(
        s,
        token,
        'POST',
        `/releases/${releaseId}/tracks/upload-url`,
        { filename: 'a.wav', content_type: 'audio/wav', size: wav.length, sha256: sha256(wav) },
        { 'idempotency-key': 'shared-upload-1' },
      );
    const [a, b] = [await ask(), await ask()];
    expect(b.body.key).toBe(a.body.key);
    const url = new URL(a.body.upload_url);

    // The first sends half its bytes and holds the rest while a second one asks.
    let rest: () => void = () => undefined;
    const first = putExpecting(url, wav.length, (req) => {
      req.write(wav.subarray(0, wav.length / 2));
      rest = () => req.end(wav.subarray(wav.length / 2));
    });
    await vi.waitFor(() => expect(filesOnDisk().then((f) => f.tmp.some((t) => t.startsWith(a.body.key)))).resolves.toBe(true));
    const second = await putExpecting(url, wav.length, (req) => req.end(wav));
    expect(second).toMatchObject({ status: 409, continued: false, retryAfter: '1', body: { error: { code: 'upload_in_progress' } } });
    rest();
    expect(await first).toMatchObject({ status: 200, continued: true, body: { key: a.body.key, state: 'ready', sha256: sha256(wav) } });

    const third = await putExpecting(url, wav.length, (req) => req.end(wav));
    expect(third).toMatchObject({ status: 412, continued: false, body: { error: { code: 'precondition_failed' } } });
    // Without the header, the address takes the bytes again as it always did.
    expect((await fetch(url, { method: 'PUT', body: wav })).status).toBe(200);
  });
});

describe('an upload the client abandons', () => {
  test('a connection dropped halfway leaves no partial file, and the address still works', async () => {
    const wav = validWav();
    const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
      filename: 'a.wav',
      content_type: 'audio/wav',
      size: wav.length,
      sha256: sha256(wav),
    });
    const url = new URL(u.body.upload_url);
    const { request } = await import('node:http');
    const req = request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path: url.pathname + url.search,
      headers: { 'content-length': String(wav.length) },
    });
    const ended = new Promise<void>((resolve) => {
      req.on('error', () => resolve());
      req.on('response', () => resolve());
    });
    req.write(wav.subarray(0, wav.length / 2));
    // Once the service is writing the partial file, the client vanishes.
    let tmp = (await filesOnDisk()).tmp;
    for (let i = 0; i < 200 && tmp.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      tmp = (await filesOnDisk()).tmp;
    }
    expect(tmp).toHaveLength(1);
    req.destroy();
    await ended;
    // The service notices the drop on its own schedule: wait for it, boundedly.
    for (let i = 0; i < 200 && tmp.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      tmp = (await filesOnDisk()).tmp;
    }
    expect(tmp).toEqual([]);
    expect((await filesOnDisk()).files).not.toContain(u.body.key);
    expect((await fetch(url, { method: 'PUT', body: wav })).status).toBe(200);
    expect((await filesOnDisk()).tmp).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});

describe('a release deleted while its upload is arriving', () => {
  test('the upload is refused and leaves no file behind', async () => {
    const rel = await createRelease(s, token);
    const wav = validWav();
    const u = await api(s, token, 'POST', `/releases/${rel.id}/tracks/upload-url`, {
      filename: 'a.wav',
      content_type: 'audio/wav',
      size: wav.length,
      sha256: sha256(wav),
    });
    const url = new URL(u.body.upload_url);
    const { request } = await import('node:http');
    const req = request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path: url.pathname + url.search,
      headers: { 'content-length': String(wav.length) },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.write(wav.subarray(0, wav.length / 2));
    let tmp = (await filesOnDisk()).tmp;
    for (let i = 0; i < 200 && tmp.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      tmp = (await filesOnDisk()).tmp;
    }
    expect(tmp).toHaveLength(1);
    expect((await api(s, token, 'DELETE', `/releases/${rel.id}`)).status).toBe(200);
    req.end(wav.subarray(wav.length / 2));
    const res = await answer;
    expect(res.status, res.body).toBe(404);
    const after = await filesOnDisk();
    expect(after.files).not.toContain(u.body.key);
    expect(after.tmp).toEqual([]);
  });
});
