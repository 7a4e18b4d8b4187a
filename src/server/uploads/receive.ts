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
  // A failure of the file (disk full, no permission) is ours, not the client's: it must not be
  // reported as an interrupted upload for the client to retry forever.
  // (pipeline hands the client's error on to the file too, so only a different one is the file's.)
  let sourceError: unknown;
  let fileError: unknown;
  try {
    const source = body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream) : Readable.from([]);
    const file = createWriteStream(tmpPath, { flags: 'wx', mode: 0o600 });
    source.once('error', (e) => (sourceError ??= e));
    file.once('error', (e) => (fileError ??= e));
    await pipeline(source, meter, file);
  } catch (e) {
    await rm(tmpPath, { force: true });
    if (e instanceof TooManyBytes) {
      throw new ServiceError(422, 'upload_mismatch', `the upload is larger than the declared size of ${declaredSize} bytes`);
    }
    // Not a ServiceError: the app answers a 500 without details and logs this one.
    if (fileError !== undefined && fileError !== sourceError && !(fileError instanceof TooManyBytes)) throw fileError;
    throw new ServiceError(400, 'upload_interrupted', 'the upload ended before the file was complete; upload it again');
  }
  return { bytes, sha256: hash.digest('hex') };
}
