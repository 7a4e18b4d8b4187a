// The whole file's sha256 of uploads in parts, computed while the parts arrive, so that the
// completion does not read the whole file in series at its end. Parts arrive in any order; as
// soon as the parts from the start are all held, the bytes up to the first gap are hashed, read
// back from the parts file (the page cache holds them), in a worker thread: the thread that
// receives the parts only checks each part's CRC-32. A part held again with other bytes, a
// restart, or parts received by another process: the digest is computed from the file at the
// completion instead (the same worker, still off the receiving thread).
import type { Worker } from 'node:worker_threads';

// One sequential reader per process: ranges of a file into its key's hash, in the order asked.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const hashes = new Map();
const buf = Buffer.allocUnsafe(1024 * 1024);
function feed(hash, path, from, to) {
  const fd = openSync(path, 'r');
  try {
    for (let at = from; at < to; ) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, to - at), at);
      if (got === 0) throw new Error(path + ' ends at byte ' + at + ', before ' + to);
      hash.update(buf.subarray(0, got));
      at += got;
    }
  } finally {
    closeSync(fd);
  }
}
parentPort.on('message', (m) => {
  try {
    if (m.op === 'range') {
      let h = hashes.get(m.key);
      if (!h) hashes.set(m.key, (h = { hash: createHash('sha256'), failed: undefined }));
      if (!h.failed) feed(h.hash, m.path, m.from, m.to);
    } else if (m.op === 'digest') {
      const h = hashes.get(m.key);
      hashes.delete(m.key);
      parentPort.postMessage({ id: m.id, sha256: h && !h.failed ? h.hash.digest('hex') : undefined });
    } else if (m.op === 'file') {
      const hash = createHash('sha256');
      feed(hash, m.path, 0, m.size);
      parentPort.postMessage({ id: m.id, sha256: hash.digest('hex') });
    } else if (m.op === 'drop') {
      hashes.delete(m.key);
    }
  } catch (e) {
    const h = m.key !== undefined ? hashes.get(m.key) : undefined;
    if (h) h.failed = e;
    if (m.id !== undefined) parentPort.postMessage({ id: m.id, error: String(e && e.message || e) });
  }
});
`;

interface Running {
  path: string;
  partSize: number;
  size: number;
  /** Bytes from the start handed to the worker. */
  sent: number;
  /** Parts held beyond `sent`, by number. */
  ahead: Set<number>;
  /** The checksum of each part as it was when it was held here: the digest stands only if the parts held at the completion are these. */
  checksums: Map<number, string>;
}

export class RunningDigests {
  private worker: Promise<Worker> | undefined;
  private readonly running = new Map<string, Running>();
  private readonly replies = new Map<number, { resolve(sha: string | undefined): void; reject(e: Error): void }>();
  private nextId = 1;

  private post(message: object): Promise<Worker> {
    this.worker ??= import('node:worker_threads').then(({ Worker }) => {
      const w = new Worker(WORKER, { eval: true });
      w.unref();
      w.on('message', (m: { id: number; sha256?: string; error?: string }) => {
        const reply = this.replies.get(m.id);
        this.replies.delete(m.id);
        if (m.error !== undefined) reply?.reject(new Error(m.error));
        else reply?.resolve(m.sha256);
      });
      w.on('error', (e) => {
        for (const r of this.replies.values()) r.reject(e);
        this.replies.clear();
        this.running.clear();
        this.worker = undefined;
      });
      return w;
    });
    return this.worker.then((w) => {
      w.postMessage(message);
      return w;
    });
  }

  private ask(message: object): Promise<string | undefined> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.replies.set(id, { resolve, reject });
      this.post({ ...message, id }).catch(reject);
    });
  }

  /** Part `part` (from 1) of the upload `key` is held now, with `checksum`; `replaced`: it was held before with other bytes. */
  held(key: string, path: string, upload: { size: number; part_size: number }, part: number, checksum: string, replaced: boolean): void {
    let r = this.running.get(key);
    if (replaced && r && (part - 1) * r.partSize < r.sent) {
      // Bytes already hashed changed: hashed again from the file at the completion.
      this.drop(key);
      return;
    }
    if (!r) {
      r = { path, partSize: upload.part_size, size: upload.size, sent: 0, ahead: new Set(), checksums: new Map() };
      this.running.set(key, r);
    }
    r.checksums.set(part, checksum);
    r.ahead.add(part);
    const from = r.sent;
    for (let next = r.sent / r.partSize + 1; r.ahead.delete(next); next++) r.sent = Math.min(r.size, next * r.partSize);
    if (r.sent > from) void this.post({ op: 'range', key, path, from, to: r.sent }).catch(() => this.running.delete(key));
  }

  /**
   * The sha256 of the whole upload: from the running hash when every byte went through it, else
   * read from `path` (the worker thread either way).
   */
  async digest(key: string, path: string, size: number, parts: readonly { part: number; checksum: string }[]): Promise<string> {
    const r = this.running.get(key);
    this.running.delete(key);
    // Every part hashed here, as it is held now (another process sharing the data directory may have written one again).
    const same = r !== undefined && parts.length === r.checksums.size && parts.every((p) => r.checksums.get(p.part) === p.checksum);
    if (r && same && r.sent === size && r.path === path) {
      const sha = await this.ask({ op: 'digest', key }).catch(() => undefined);
      if (sha !== undefined) return sha;
    } else if (r) {
      void this.post({ op: 'drop', key }).catch(() => undefined);
    }
    const sha = await this.ask({ op: 'file', path, size });
    if (sha === undefined) throw new Error(`no digest of ${path}`);
    return sha;
  }

  drop(key: string): void {
    if (this.running.delete(key)) void this.post({ op: 'drop', key }).catch(() => undefined);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.running.clear();
    if (w) await (await w).terminate();
  }
}
