// What the service leaves on disk: the database (which holds the upload-signing secret), the
// tokens file and uploaded audio are readable by their owner only, whatever the umask.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createRelease, upload, validWav } from '../helpers/releases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let oldUmask: number;

beforeAll(async () => {
  // The usual desktop umask: without care, new files would be world-readable.
  oldUmask = process.umask(0o022);
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
  process.umask(oldUmask);
});

const modeOf = async (...parts: string[]) => (await stat(join(s.dataDir, ...parts))).mode & 0o777;

test('database, tokens file and uploads are private to the owner', async () => {
  const rel = await createRelease(s, s.tokens.label);
  const up = await upload(s, s.tokens.label, rel.id, validWav());
  expect(up.put.status).toBe(200);
  const modes = {
    db: await modeOf('reldist.sqlite'),
    wal: await modeOf('reldist.sqlite-wal'),
    shm: await modeOf('reldist.sqlite-shm'),
    tokens: await modeOf('sandbox-tokens.json'),
    uploads: await modeOf('uploads'),
    files: await modeOf('uploads', 'files'),
    tmp: await modeOf('uploads', 'tmp'),
    file: await modeOf('uploads', 'files', up.key),
  };
  for (const [what, mode] of Object.entries(modes)) expect(mode & 0o077, `${what}: ${mode.toString(8)}`).toBe(0);
});
