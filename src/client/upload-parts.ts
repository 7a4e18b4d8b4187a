// An upload in parts (docs/api.md, "Uploading audio"): the file cut into parts of `partSize`
// bytes, sent over `connections` connections at once, each part with the CRC-32 of its bytes
// (Upload-Checksum, tus's checksum extension), then completed with the whole file's sha256, which
// the service checks before the upload counts. Both are computed in a worker thread, in one pass
// over the file, ahead of the parts leaving: nothing is hashed in series before the first byte is
// sent, and the thread that sends only reads. A checkpoint (the
// caller's store: which upload, the file's identity, its sha256 once known) lets a run that was
// killed or failed continue the same upload: the service says which parts it holds, and only the
// others are sent. A dropped connection costs at most its part: the part is asked for again, and
// the service asked what it holds when the retries run out.
// node:crypto, fs and worker_threads are imported inside the functions (see upload.ts).
import type { ApiClient } from './client.js';
import { ApiError, UploadIntegrityError } from './errors.js';
import { answeredSha256, READ_BUFFER } from './upload-common.js';
import { sleep } from './retry.js';
import type { TrackUploadUrlData, UploadParts, UploadPart } from '../contract/resources.js';

/** The service answered the address without `parts` (one that does not upload in parts, ignoring part_size): the file goes to it whole. */
export class PartsNotOffered extends Error {
  constructor(readonly ticket: TrackUploadUrlData) {
    super('the service offers no upload in parts');
    this.name = 'PartsNotOffered';
  }
}

/** What a checkpoint remembers of one file's upload; never an address (the signature is a credential). */
export interface UploadCheckpoint {
  /** The upload's key: names it to its owner's token, grants nothing by itself. */
  key: string;
  size: number;
  mtimeMs: number;
  ino: number;
  partSize: number;
  /** The file's sha256, once computed. */
  sha256?: string | undefined;
  /** The parts known held (informational: the service's answer decides). */
  done: number[];
}

/** Where the checkpoint of one file's upload (to one release of one service) is kept: the caller's. */
export interface CheckpointStore {
  load(): Promise<UploadCheckpoint | undefined>;
  save(checkpoint: UploadCheckpoint): Promise<void>;
  remove(): Promise<void>;
}

export interface PartsSettings {
  /** Bytes per part (routes.ts uploadPartBounds). */
  partSize: number;
  /** Parts sent at once. */
  connections: number;
  checkpoint?: CheckpointStore | undefined;
}

export interface PartsProgress {
  /** Bytes the service holds or that left for it. */
  bytes: number;
  total: number;
  /** Once, first, for an upload continued: `bytes` the service holds already. */
  resumed?: true;
}

/** Asks for (or again for) the upload's address; `resumeKey` continues that upload when the service can. */
export type AskAddress = (body: { part_size: number; sha256?: string; resume_key?: string }) => Promise<TrackUploadUrlData>;

/** How many times one part is sent before the upload gives up (each send with the client's own retries of a dropped connection). */
const PART_ATTEMPTS = 5;

interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

const sameFile = (c: UploadCheckpoint, f: FileIdentity) => c.size === f.size && c.mtimeMs === f.mtimeMs && c.ino === f.ino;

/**
 * Uploads `file` in parts and completes it; returns the service's answer to the completion (the
 * probed file). `ask` gets the address (the caller's endpoint: a track's file). `knownSha256`: the
 * caller hashed the file already (release apply).
 */
export async function uploadInParts(
  client: ApiClient,
  file: string,
  ask: AskAddress,
  settings: PartsSettings,
  options: { onProgress?: (p: PartsProgress) => void; signal?: AbortSignal | undefined; knownSha256?: string | undefined; shared?: boolean } = {},
): Promise<{ key: string; sha256: string; answer: unknown }> {
  const { stat } = await import('node:fs/promises');
  const st = await stat(file);
  const identity: FileIdentity = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  const store = settings.checkpoint;
  let saved = await store?.load().catch(() => undefined);
  if (saved && !sameFile(saved, identity)) {
    // The file changed since: its parts are another file's. Its upload is discarded, to free what it holds of the quota (else it expires).
    const stale = saved.key;
    await store?.remove();
    saved = undefined;
    await client
      .call('discardUploads', { body: { keys: [stale] }, bodyChecked: true, ...(options.signal ? { signal: options.signal } : {}) })
      .catch(() => undefined);
  }
  const partSize = saved?.partSize ?? settings.partSize;
  let sha256 = options.knownSha256 ?? saved?.sha256;
  const ticket = await ask({
    part_size: partSize,
    ...(sha256 !== undefined && options.knownSha256 !== undefined ? { sha256 } : {}),
    ...(saved && !options.shared ? { resume_key: saved.key } : {}),
  });
  if (!ticket.parts) throw new PartsNotOffered(ticket);
  let parts: UploadParts = ticket.parts;
  const key = ticket.key;
  const checkpoint: UploadCheckpoint = { key, ...identity, partSize, sha256, done: [] };
  const held = new Map<number, UploadPart>();
  const learn = (list: readonly UploadPart[]) => {
    for (const p of list) held.set(p.part, p);
  };
  learn(parts.received);
  // Shared with other clients (the same Idempotency-Key): the answer may be an old one; ask what the service holds now.
  let completeAlready = false;
  if (options.shared && parts.state === 'receiving') {
    const now = await statusOf(client, ticket.upload_url, options.signal);
    learn(now.parts);
    completeAlready = now.ready;
  }
  checkpoint.done = [...held.keys()];
  await store?.save(checkpoint);

  const count = parts.count;
  const spanOf = (n: number) => ({ offset: (n - 1) * partSize, size: Math.min(partSize, identity.size - (n - 1) * partSize) });
  const heldBytes = () => [...held.values()].reduce((sum, p) => sum + p.size, 0);
  let leaving = 0;
  const report = () => options.onProgress?.({ bytes: Math.min(identity.size, heldBytes() + leaving), total: identity.size });
  if (held.size > 0 || parts.state === 'ready' || completeAlready)
    options.onProgress?.({ bytes: parts.state === 'ready' ? identity.size : heldBytes(), total: identity.size, resumed: true });
  report();

  const hashes = (parts.state === 'ready' || completeAlready) && sha256 !== undefined ? undefined : hashInWorker(file, partSize, identity.size, options.signal);
  try {
    if (parts.state !== 'ready' && !completeAlready) {
      const pending = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !held.has(n));
      let renewing: Promise<void> | undefined;
      // The address expired while parts were going up (an upload of more than its hour): the same upload, a new address.
      const renew = (): Promise<void> =>
        (renewing ??= ask({ part_size: partSize, ...(sha256 ? { sha256 } : {}), resume_key: key })
          .then((t) => {
            if (t.key !== key || !t.parts) throw new Error(`the service could not continue upload ${key}`);
            parts = t.parts;
            learn(t.parts.received);
          })
          .finally(() => {
            renewing = undefined;
          }));

      // The upload's own address (GET: what the service holds), from the parts' one, which a renewal changes.
      const statusUrl = () => parts.part_url.replace('/parts/{part}', '');
      const sendPart = async (n: number, reader: RangeReader): Promise<void> => {
        const span = spanOf(n);
        const checksum = await hashes!.part(n);
        for (let attempt = 1; ; attempt++) {
          options.signal?.throwIfAborted();
          let sent = 0;
          try {
            const res = await client.request({
              method: 'PUT',
              path: parts.part_url.replace('{part}', String(n)),
              headers: { 'content-type': 'application/octet-stream', 'content-length': String(span.size), 'upload-checksum': checksum },
              auth: false,
              workload: 'upload',
              // Asked first: a part held already (its answer lost, or sent by another client sharing the upload), arriving on another
              // connection, or refused, is answered before a byte of it leaves. A round trip per part: 3-5% through a 40 ms link, and
              // a lost answer then costs no bytes.
              expectContinue: true,
              signal: options.signal,
              body: () => {
                leaving -= sent;
                sent = 0;
                return rangeChunks(reader, span.offset, span.size, (chunk) => {
                  sent += chunk.length;
                  leaving += chunk.length;
                  report();
                });
              },
            });
            // Counted as held from here (or not at all, if the answer is refused below): never taken off twice.
            leaving -= sent;
            sent = 0;
            const answered = partAnswer(res.data);
            if (!answered || answered.part !== n || answered.checksum !== checksum)
              throw new UploadIntegrityError(`${file} (part ${n})`, checksum, answered?.checksum);
            held.set(n, answered);
            checkpoint.done = [...held.keys()];
            await store?.save(checkpoint).catch(() => undefined);
            report();
            return;
          } catch (err) {
            leaving -= sent;
            sent = 0;
            report();
            if (options.signal?.aborted || attempt >= PART_ATTEMPTS) throw err;
            if (err instanceof ApiError) {
              if (err.code === 'upload_expired') await renew();
              // Completed meanwhile (by another client sharing it): nothing more to send.
              else if (err.code === 'state_conflict' && (await statusOf(client, statusUrl(), options.signal)).ready) {
                completeAlready = true;
                return;
              }
              // Another connection (another client sharing the upload) is sending this part: wait, then ask again (it is then held).
              else if (err.code === 'upload_in_progress') await sleep(Math.min(5, err.retryAfterSeconds ?? 1) * 1000, options.signal);
              // A passing failure (503, 429, a gateway's 502/504…) that outlasted the client's own retries: the part is sent
              // again after a pause, within PART_ATTEMPTS, rather than failing the whole upload.
              else if (err.status >= 500 || err.status === 429) await sleep(Math.min(5, err.retryAfterSeconds ?? 1) * 1000, options.signal);
              // Changed on the way (or on the disk): sent again, alone.
              else if (err.code !== 'upload_part_mismatch') throw err;
            } else if (err instanceof UploadIntegrityError) {
              // Sent again below.
            } else {
              // The connection dropped past the client's own retries: ask what the service holds, then send the part unless it is there.
              const now = await statusOf(client, statusUrl(), options.signal).catch(() => undefined);
              if (now) learn(now.parts);
              if (held.get(n)?.checksum === checksum) return;
            }
          }
        }
      };

      let next = 0;
      const worker = async () => {
        const reader = await openRangeReader(file);
        try {
          while (next < pending.length && !completeAlready) await sendPart(pending[next++]!, reader);
        } finally {
          await reader.close();
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.connections, pending.length)) }, worker));
    }
    if (sha256 === undefined) {
      sha256 = await hashes!.whole;
      checkpoint.sha256 = sha256;
      await store?.save(checkpoint).catch(() => undefined);
    } else if (hashes && options.knownSha256 === undefined) {
      // The checkpoint's digest is the file's as it was: checked against the file as it is now.
      const now = await hashes.whole;
      if (now !== sha256) throw new UploadIntegrityError(file, now, sha256);
    }
    const res = await complete(client, parts.complete_url, sha256, options.signal);
    const confirmed = answeredSha256(res.data);
    if (confirmed !== sha256) throw new UploadIntegrityError(file, sha256, confirmed);
    return { key, sha256, answer: res.data };
  } catch (err) {
    // The whole file is not what was sent (changed on the disk while it went up, or a checkpoint from before): the parts were
    // dropped by the service, and the checkpoint goes too, so that the next run starts afresh.
    if (err instanceof ApiError && err.code === 'upload_mismatch') await store?.remove();
    if (err instanceof UploadIntegrityError) await store?.remove();
    throw err;
  } finally {
    hashes?.stop();
  }
}

/** How many times a completion that another request is running (a client sharing the upload) is asked again, a second apart. */
const COMPLETE_WAITS = 120;

/** POST to the completion's address; while another request completes it, asked again (then answered the same). */
async function complete(client: ApiClient, url: string, sha256: string, signal: AbortSignal | undefined) {
  for (let wait = 0; ; wait++) {
    try {
      return await client.request({
        method: 'POST',
        path: url,
        // The completion answers the same when asked again (docs/api.md): the key tells the client it may retry it (a lost answer, a reset).
        headers: { 'content-type': 'application/json', 'idempotency-key': `complete:${sha256}` },
        body: JSON.stringify({ sha256 }),
        auth: false,
        workload: 'upload',
        signal,
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'upload_in_progress') || wait >= COMPLETE_WAITS) throw err;
      await sleep(Math.min(5, err.retryAfterSeconds ?? 1) * 1000, signal);
    }
  }
}

/** GET on a signed address: whether the upload is complete, and the parts the service holds. */
async function statusOf(client: ApiClient, uploadUrl: string, signal: AbortSignal | undefined): Promise<{ ready: boolean; parts: UploadPart[] }> {
  const res = await client.request({ method: 'GET', path: uploadUrl, auth: false, workload: 'upload', signal });
  const data = res.data;
  if (typeof data !== 'object' || data === null || !('parts' in data) || !Array.isArray(data.parts)) return { ready: false, parts: [] };
  const ready = 'state' in data && data.state === 'ready';
  return { ready, parts: data.parts.map(partAnswer).filter((p): p is UploadPart => p !== undefined) };
}

function partAnswer(data: unknown): UploadPart | undefined {
  if (typeof data !== 'object' || data === null || !('part' in data) || !('size' in data) || !('checksum' in data)) return undefined;
  const { part, size, checksum } = data;
  return typeof part === 'number' && typeof size === 'number' && typeof checksum === 'string' ? { part, size, checksum } : undefined;
}

/**
 * One connection's reader of the file: opened once for all its parts (not once a part), with its
 * own pair of buffers, reused from part to part (a fresh pair per part left hundreds of megabytes
 * to the collector).
 */
interface RangeReader {
  file: string;
  fh: import('node:fs/promises').FileHandle;
  buffers: [Buffer, Buffer];
  close(): Promise<void>;
}

async function openRangeReader(file: string): Promise<RangeReader> {
  const fh = await (await import('node:fs/promises')).open(file, 'r');
  return { file, fh, buffers: [Buffer.allocUnsafe(READ_BUFFER), Buffer.allocUnsafe(READ_BUFFER)], close: () => fh.close() };
}

/**
 * `size` bytes of the file from `offset`, in pieces of the buffers' size, each seen by `onChunk` as
 * it leaves: the reader's two buffers in turn (as upload.ts's fileChunks).
 */
async function* rangeChunks(reader: RangeReader, offset: number, size: number, onChunk: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  const { fh, file } = reader;
  let [filling, spare] = reader.buffers;
  let position = offset;
  const end = offset + size;
  const read = () => fh.read(filling, 0, Math.min(filling.length, end - position), position);
  let next: Promise<{ bytesRead: number }> | undefined;
  try {
    next = read();
    while (next) {
      const { bytesRead } = await next;
      next = undefined;
      if (bytesRead === 0) throw new Error(`${file} ended before byte ${end}: it changed while it was sent`);
      position += bytesRead;
      const filled = filling;
      [filling, spare] = [spare, filled];
      if (position < end) next = read();
      const chunk = filled.subarray(0, bytesRead);
      onChunk(chunk);
      yield chunk;
    }
  } finally {
    // A part cut short (its connection dropped) leaves no read in flight on the shared buffers.
    await next?.catch(() => undefined);
  }
}

interface Hashes {
  /** The checksum of part `n` (`crc32 <base64>`), once the pass has read it. */
  part(n: number): Promise<string>;
  whole: Promise<string>;
  stop(): void;
}

// The worker's code: one sequential pass over the file, each byte into its part's CRC-32 and the
// whole file's sha256; a part's checksum posted (as Upload-Checksum writes it: wire-values.ts) as
// soon as its last byte is read. Plain CommonJS, run with eval, so that the bundle needs no file of
// its own for it.
const HASH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
const { openSync, readSync, closeSync } = require('node:fs');
const { file, partSize, size } = workerData;
const fd = openSync(file, 'r');
const buf = Buffer.allocUnsafe(1024 * 1024);
const whole = createHash('sha256');
let crc = 0;
let inPart = 0, n = 1, position = 0;
try {
  while (position < size) {
    const want = Math.min(buf.length, size - position, partSize - inPart);
    const got = readSync(fd, buf, 0, want, position);
    if (got === 0) throw new Error(file + ' ended at byte ' + position + ' of ' + size + ': it changed while it was sent');
    const chunk = buf.subarray(0, got);
    whole.update(chunk);
    crc = crc32(chunk, crc);
    position += got;
    inPart += got;
    if (inPart === partSize || position === size) {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(crc >>> 0);
      parentPort.postMessage({ part: n, checksum: 'crc32 ' + b.toString('base64') });
      crc = 0;
      inPart = 0;
      n++;
    }
  }
  parentPort.postMessage({ whole: whole.digest('hex') });
} finally {
  closeSync(fd);
}
`;

function hashInWorker(file: string, partSize: number, size: number, signal: AbortSignal | undefined): Hashes {
  const waiting = new Map<number, { resolve(sha: string): void; reject(e: unknown): void }>();
  const known = new Map<number, string>();
  let failed: unknown;
  let resolveWhole!: (sha: string) => void;
  let rejectWhole!: (e: unknown) => void;
  const whole = new Promise<string>((resolve, reject) => {
    resolveWhole = resolve;
    rejectWhole = reject;
  });
  // Handled where it is awaited; a failed upload may never await it.
  whole.catch(() => undefined);
  const fail = (e: unknown) => {
    failed ??= e;
    rejectWhole(e);
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  const started = import('node:worker_threads').then(({ Worker }) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: { file, partSize, size } });
    worker.on('message', (m: { part?: number; checksum?: string; whole?: string }) => {
      if (m.whole !== undefined) return resolveWhole(m.whole);
      if (m.part === undefined || m.checksum === undefined) return;
      known.set(m.part, m.checksum);
      waiting.get(m.part)?.resolve(m.checksum);
      waiting.delete(m.part);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`hashing ${file} stopped (exit ${code})`));
    });
    return worker;
  });
  started.catch(fail);
  const onAbort = () => fail(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    part(n) {
      const sha = known.get(n);
      if (sha !== undefined) return Promise.resolve(sha);
      if (failed !== undefined) return Promise.reject(failed);
      return new Promise((resolve, reject) => waiting.set(n, { resolve, reject }));
    },
    whole,
    stop() {
      signal?.removeEventListener('abort', onAbort);
      void started.then((w) => w.terminate()).catch(() => undefined);
    },
  };
}
