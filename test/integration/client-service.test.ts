// The client against the real reference service on 127.0.0.1 (both transports).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeWav, sha256 } from '../helpers/audio.js';
import { ApiError, RequestValidationError, createClient, uploadTrackFile } from '../../src/client/index.js';
import { describeClientError } from '../../src/cli/describe-client-error.js';
import type { BodyOf } from '../../src/contract/index.js';

let server: TestServer;
let work: string;
beforeAll(async () => {
  server = await startTestServer();
  work = mkdtempSync(join(tmpdir(), 'reldist-client-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const release: BodyOf<'createRelease'> = {
  type: 'single',
  title: 'Northern Sky',
  artists: [{ name: 'Nina Vale', role: 'primary' }],
  label: 'Northern Lights Records',
};

for (const transport of ['http', 'undici'] as const) {
  describe(`client over ${transport} against the reference service`, () => {
    const client = () => createClient({ baseUrl: server.url, token: server.tokens.label, transport });

    it('reads /me through the catalog, keeping the wire shape', async () => {
      const c = client();
      const me = await c.call('getMe');
      expect(me).toMatchObject({ kind: 'label' });
      expect(typeof me.created_at).toBe('string');
      await c.close();
    });

    it('checks a request body before sending it and names the bad field', async () => {
      const c = client();
      const before = await c.call('listReleases');
      // @ts-expect-error a role the contract does not know: the client refuses it before sending
      const err: any = await c.call('createRelease', { body: { ...release, artists: [{ name: 'X', role: 'drummer' }] } }).catch((e: any) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect(err.message).toMatch(/artists\.0\.role/);
      expect(describeClientError(err)!.exitCode).toBe(2);
      const after = await c.call('listReleases');
      expect(after.meta.total).toBe(before.meta.total);
      await c.close();
    });

    it('creates with an idempotency key: the same key replays the same release', async () => {
      const c = client();
      const key = `it-${transport}-${Date.now()}`;
      const a = await c.call('createRelease', { body: release, idempotencyKey: key });
      const b = await c.call('createRelease', { body: release, idempotencyKey: key });
      expect(b.id).toBe(a.id);
      const c2 = await c.call('createRelease', { body: release });
      expect(c2.id).not.toBe(a.id);
      await c.close();
    });

    it('walks every page of a list', async () => {
      const c = client();
      for (let i = 0; i < 3; i++) await c.call('createRelease', { body: { ...release, title: `Paged ${transport} ${i}` } });
      const total = (await c.call('listReleases')).meta.total;
      const pages: number[] = [];
      const all = await c.all('listReleases', { query: { perPage: 2 } }, (p) => pages.push(p));
      expect(all).toHaveLength(total);
      expect(new Set(all.map((r) => r.id)).size).toBe(total);
      expect(pages.length).toBe(Math.ceil(total / 2));
      await c.close();
    });

    it('turns 404 and 401 into typed errors with the right exit codes', async () => {
      const c = client();
      const nf: any = await c.call('getRelease', { params: { releaseId: 999999 } }).catch((e: any) => e);
      expect(nf).toBeInstanceOf(ApiError);
      expect(nf).toMatchObject({ status: 404, code: 'not_found' });
      expect(nf.requestId).toMatch(/^req_/);
      expect(describeClientError(nf)!.exitCode).toBe(5);
      const bad = createClient({ baseUrl: server.url, token: 'rd_wrong', transport });
      const unauth: any = await bad.call('getMe').catch((e: any) => e);
      expect(describeClientError(unauth)!).toMatchObject({ exitCode: 4 });
      await Promise.all([c.close(), bad.close()]);
    });

    it('uploads a file by streaming it once, with sha256 and progress', async () => {
      const c = client();
      const created = await c.call('createRelease', { body: { ...release, title: `Upload ${transport}` } });
      const file = join(work, `tone-${transport}.wav`);
      const wav = makeWav({ seconds: 30 });
      writeFileSync(file, wav);
      const phases = new Set<string>();
      let lastUpload = 0;
      const res = await uploadTrackFile(c, created.id, file, {
        onProgress: (p) => {
          phases.add(p.phase);
          if (p.phase === 'upload') lastUpload = p.bytes;
        },
      });
      expect(res.size).toBe(wav.length);
      expect(res.sha256).toBe(sha256(wav));
      expect(typeof res.key).toBe('string');
      // One pass: hashed while it is sent, no reading before.
      expect([...phases]).toEqual(['upload']);
      expect(lastUpload).toBe(wav.length);
      // The key is usable: the track list accepts it.
      const updated = await c.call('replaceReleaseTracks', {
        params: { releaseId: created.id },
        body: [{ file_key: res.key, title: 'Tone', position: 1 }],
      });
      expect(updated).toBeTruthy();
      await c.close();
    });
  });
}
