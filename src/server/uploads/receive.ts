// Streams an upload to a temporary file while hashing and counting it; never holds the file in
// memory. Past the declared size the stream is cut off at once.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../handler.js';

export interface Received {
  bytes: number;
  sha256: string;
}

export class TooManyBytes extends Error {}

/** Writes `body` to `tmpPath`; on any failure the temporary file is removed before rethrowing. */
export async function receiveToFile(body: ReadableStream<Uint8Array> | null, tmpPath: string, declaredSize: number): Promise<Received> {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > declaredSize) {
        done(new TooManyBytes());
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    const source = body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream) : Readable.from([]);
    await pipeline(source, meter, createWriteStream(tmpPath, { flags: 'wx', mode: 0o600 }));
  } catch (e) {
    await rm(tmpPath, { force: true });
    if (e instanceof TooManyBytes) {
      throw new ServiceError(422, 'upload_mismatch', `the upload is larger than the declared size of ${declaredSize} bytes`);
    }
    throw new ServiceError(400, 'upload_interrupted', 'the upload ended before the file was complete; upload it again');
  }
  return { bytes, sha256: hash.digest('hex') };
}
