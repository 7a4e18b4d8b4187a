// The whole file's sha256 of uploads in parts, computed while the parts arrive, so that the
// completion does not read the whole file in series at its end. Parts arrive in any order; as
// soon as the parts from the start are all held, the bytes up to the first gap are hashed, read
// back from the parts file (the page cache holds them) in 1 MiB steps, one step at a time per
// upload, between the parts' own events. A part held again with other bytes, a restart, or parts
// received by another process: the digest is computed from the file at the completion instead.
// On the receiving thread, not a worker: a worker thread's own heap cost the service ~11 MiB of
// peak memory while parts arrived (docs/performance.md, issue 24), for the same CPU seconds.
import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';

const STEP = 1024 * 1024;

interface Running {
  path: string;
  partSize: number;
  size: number;
  /** Bytes from the start whose hashing was asked for. */
  sent: number;
  /** Parts held beyond `sent`, by number. */
  ahead: Set<number>;
  /** The checksum of each part as it was when it was held here: the digest stands only if the parts held at the completion are these. */
  checksums: Map<number, string>;
  hash: Hash;
  /** The hashing asked for so far, in order; rejects if a read failed. */
  hashed: Promise<void>;
  dropped: boolean;
  /** When its last part was held: one idle past the expiry (swept, discarded, or completed by another process) is forgotten. */
  at: number;
}

/**
 * Hashes bytes `from`..`to` of `path` into `hash`, a step at a time; `stop`: give up between steps.
 * Its buffer lives as long as the run: nothing is held between the parts of an upload.
 */
async function feed(hash: Hash, path: string, from: number, to: number, stop: () => boolean): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(STEP, to - from)));
  const fh = await open(path, 'r');
  try {
    for (let at = from; at < to && !stop(); ) {
      const { bytesRead } = await fh.read(buffer, 0, Math.min(buffer.length, to - at), at);
      if (bytesRead === 0) throw new Error(`${path} ends at byte ${at}, before ${to}`);
      hash.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

export class RunningDigests {
  private readonly running = new Map<string, Running>();

  /** `idleMs`: the uploads' expiry; `now`: the service's clock. */
  constructor(
    private readonly idleMs: number,
    private readonly now: () => number,
  ) {}

  /** Part `part` (from 1) of the upload `key` is held now, with `checksum`; `replaced`: it was held before with other bytes. */
  held(key: string, path: string, upload: { size: number; part_size: number }, part: number, checksum: string, replaced: boolean): void {
    const now = this.now();
    for (const [k, idle] of this.running) if (now - idle.at > this.idleMs) this.drop(k);
    let r = this.running.get(key);
    if (replaced && r && (part - 1) * r.partSize < r.sent) {
      // Bytes already hashed changed: hashed again from the file at the completion.
      this.drop(key);
      return;
    }
    if (!r) {
      const made: Running = {
        path,
        partSize: upload.part_size,
        size: upload.size,
        sent: 0,
        ahead: new Set(),
        checksums: new Map(),
        hash: createHash('sha256'),
        hashed: Promise.resolve(),
        dropped: false,
        at: now,
      };
      r = made;
      this.running.set(key, r);
    }
    r.at = now;
    r.checksums.set(part, checksum);
    r.ahead.add(part);
    const from = r.sent;
    for (let next = r.sent / r.partSize + 1; r.ahead.delete(next); next++) r.sent = Math.min(r.size, next * r.partSize);
    if (r.sent > from) {
      const run = r;
      const to = r.sent;
      run.hashed = run.hashed.then(() => feed(run.hash, run.path, from, to, () => run.dropped));
      // A failed read: this running digest is given up; the completion reads the file.
      run.hashed.catch(() => {
        if (this.running.get(key) === run) this.drop(key);
      });
    }
  }

  /**
   * The sha256 of the whole upload: from the running hash when every byte went through it, else
   * read from `path`.
   */
  async digest(key: string, path: string, size: number, parts: readonly { part: number; checksum: string }[]): Promise<string> {
    const r = this.running.get(key);
    this.running.delete(key);
    // Every part hashed here, as it is held now (another process sharing the data directory may have written one again).
    const same = r !== undefined && parts.length === r.checksums.size && parts.every((p) => r.checksums.get(p.part) === p.checksum);
    if (r && same && r.sent === size && r.path === path) {
      const whole = await r.hashed.then(
        () => r.hash.digest('hex'),
        () => undefined,
      );
      if (whole !== undefined) return whole;
    } else if (r) {
      r.dropped = true;
    }
    const hash = createHash('sha256');
    await feed(hash, path, 0, size, () => false);
    return hash.digest('hex');
  }

  drop(key: string): void {
    const r = this.running.get(key);
    if (!r) return;
    r.dropped = true;
    this.running.delete(key);
  }

  async close(): Promise<void> {
    for (const r of this.running.values()) r.dropped = true;
    this.running.clear();
  }
}
