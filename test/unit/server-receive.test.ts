// receiveToFile tells the client's failures (a body cut short) from the service's own (the disk):
// only the first is the client's to retry; the second is a 500 whose details go to the log only.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ServiceError } from '../../src/server/handler.js';
import { asServiceError } from '../../src/server/http/errors.js';
import { receiveToFile } from '../../src/server/uploads/receive.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-receive-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const body = (chunks: Uint8Array[], fail = false) =>
  Readable.from(
    (async function* () {
      for (const ch of chunks) yield Buffer.from(ch);
      if (fail) throw new Error('socket hang up');
    })(),
  );

test("a body that breaks off is the client's: 400 upload_interrupted, no file left", async () => {
  const e = await receiveToFile(body([new Uint8Array(10)], true), join(dir, 'a.part'), 100).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ServiceError);
  expect((e as ServiceError).code).toBe('upload_interrupted');
  expect(await readdir(dir)).toEqual([]);
});

test("a file that cannot be written is the service's: a 500 that names no path", async () => {
  const target = join(dir, 'missing-folder', 'b.part');
  const e = await receiveToFile(body([new Uint8Array(10)]), target, 100).catch((x: unknown) => x);
  const se = asServiceError(e);
  expect(se.status).toBe(500);
  expect(se.message).not.toContain(dir);
});

test('a complete body is counted and hashed', async () => {
  const got = await receiveToFile(body([new Uint8Array([1, 2]), new Uint8Array([3])]), join(dir, 'c.part'), 3);
  expect(got).toEqual({ bytes: 3, sha256: '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81' });
});

test("a body already closed when receiving starts is the client's too, not a wait for ever", async () => {
  // The client went away while the route made its folders: 'close' came before any listener.
  const gone = body([new Uint8Array(10)]);
  gone.destroy();
  await new Promise((resolve) => gone.once('close', resolve));
  const e = await Promise.race([
    receiveToFile(gone, join(dir, 'd.part'), 100).catch((x: unknown) => x),
    new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000)),
  ]);
  expect(e).toBeInstanceOf(ServiceError);
  expect((e as ServiceError).code).toBe('upload_interrupted');
  expect(await readdir(dir)).not.toContain('d.part');
});
