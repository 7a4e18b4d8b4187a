// Streams an upload to a temporary file while hashing and counting it; never holds the file in
// memory. Node streams only, written in 1 MiB steps: the bytes pass once, from the socket to the
// hash and the file. Past the declared size the body is cut off at once.
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { ServiceError } from '../handler.js';
import { uploadChecksumText, type UploadChecksumAlgorithm } from '../../contract/wire-values.js';

export interface Received {
  bytes: number;
  sha256: string;
}

/** More bytes than were declared: the rest of the body is still on the socket. */
export class TooManyBytes extends ServiceError {
  constructor(declaredSize: number) {
    super(422, 'upload_mismatch', `the upload is larger than the declared size of ${declaredSize} bytes`);
  }
}

const WRITE_BUFFER = 1024 * 1024;

/**
 * Writes `body` to `tmpPath`; on any failure the temporary file is removed before rethrowing.
 * `cut` rejects when the body arrives too slowly (http/slow-bodies.ts): the receiving stops with its error.
 */
export async function receiveToFile(body: Readable, tmpPath: string, declaredSize: number, cut?: Promise<never>): Promise<Received> {
  const file = createWriteStream(tmpPath, { flags: 'wx', mode: 0o600, highWaterMark: WRITE_BUFFER });
  try {
    const hash = createHash('sha256');
    const bytes = await receiveInto(body, file, declaredSize, hash, cut);
    return { bytes, sha256: hash.digest('hex') };
  } catch (e) {
    // Stopped while the file was still being opened (a client gone before the first byte): it is
    // created once the open completes, so the removal waits for the stream to close.
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    await rm(tmpPath, { force: true });
    throw e;
  }
}

/**
 * Writes `body` into an existing file at `offset` (a part of an upload in parts: uploads/parts.ts).
 * On a failure what was written stays where it is: the part is not recorded, so nothing counts it.
 */
export async function receiveAt(
  body: Readable,
  path: string,
  offset: number,
  declaredSize: number,
  algorithm: UploadChecksumAlgorithm,
  cut?: Promise<never>,
): Promise<{ bytes: number; checksum: string }> {
  // crc32: zlib's, a few times cheaper than a sha256; the whole file's sha256 is checked at completion anyway.
  let crc = 0;
  const hash = algorithm === 'sha256' ? createHash('sha256') : { update: (chunk: Buffer) => void (crc = crc32(chunk, crc)) };
  const bytes = await receiveInto(body, createWriteStream(path, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER }), declaredSize, hash, cut);
  return { bytes, checksum: uploadChecksumText(algorithm, 'digest' in hash ? hash.digest() : crc) };
}

async function receiveInto(
  body: Readable,
  file: WriteStream,
  declaredSize: number,
  hash: { update(chunk: Buffer): unknown },
  cut?: Promise<never>,
): Promise<number> {
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    let ended = false;
    const stop = (e: unknown) => {
      body.off('data', onData);
      body.pause();
      file.destroy();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > declaredSize) return stop(new TooManyBytes(declaredSize));
      hash.update(chunk);
      if (!file.write(chunk)) {
        body.pause();
        file.once('drain', () => body.resume());
      }
    };
    body.on('data', onData);
    body.once('end', () => {
      ended = true;
      file.end();
    });
    // The client went away before the end: its upload, to send again.
    const interrupted = () => stop(new ServiceError(400, 'upload_interrupted', 'the upload ended before the file was complete; upload it again'));
    body.once('error', interrupted);
    body.once('close', () => {
      if (!ended) interrupted();
    });
    // Closed before these listeners came (the client went away while the route made its
    // folders): 'close' has been emitted already and would never be heard, leaving the upload
    // "arriving" for ever and every other client of its address waiting (409 upload_in_progress).
    if (body.destroyed) interrupted();
    // A failure of the file (disk full, no permission) is ours, not the client's: it must not be
    // reported as an interrupted upload for the client to retry forever. Not a ServiceError: the
    // app answers a 500 without details and logs this one.
    file.once('error', stop);
    cut?.catch(stop);
    file.once('close', () => {
      if (ended) resolve();
    });
  });
  return bytes;
}
