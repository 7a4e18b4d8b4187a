// What the disk keeps of uploads, and for how long (in the manner of S3's lifecycle rules and
// multipart-upload expiry). A complete upload no track names ("unattached") counts against its
// account's quota (limits.ts) and is deleted, row and file, once it is older than the expiry; a
// file with no row is an orphan (a crash between a row's delete and its file's); a partial file
// whose writer is gone is crash debris. The running service sweeps all three every few minutes
// and says what it removed; `reldist sandbox prune` runs the same removals on demand.
import type { Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { uploadKeyPattern } from '../../contract/routes.js';
import type { Logger, ServerDeps } from '../handler.js';
import {
  deleteAbandonedUploads,
  deleteUnattachedUploads,
  knownUploadKeys,
  uploadFilePath,
  uploadPartsDir,
  uploadPartsPath,
  uploadsDir,
  uploadsTmpDir,
} from '../store/uploads.js';

export interface UploadRetention {
  /** A complete upload no track names is deleted this long after it arrived. */
  unattachedExpiryMs: number;
  /** How often the running service sweeps (an unref'd timer: it never keeps a process alive). */
  sweepMs: number;
}

export const DEFAULT_UPLOAD_RETENTION: UploadRetention = { unattachedExpiryMs: 24 * 3_600_000, sweepMs: 5 * 60_000 };

/**
 * A partial file whose writer cannot be named (a name from before writers were named, or a pid
 * now used by another process) is debris once untouched this long: a live upload writes at least
 * every stall timeout (a minute by default: limits.ts) or is cut off.
 */
export const STALE_PART_MS = 10 * 60_000;

/**
 * This process's name for the partial files it writes: pid and a random instance, so that a
 * process that reuses the pid of a killed one (usual in a container) still tells its files from
 * the dead one's. All writers of a data directory are on one host: SQLite's WAL, which the
 * database runs in, needs shared memory, so no other host can write to it.
 */
const INSTANCE = randomBytes(4).toString('hex');
const PART_NAME = /\.(\d+)-([0-9a-f]{8})\.part$/;

/** Where an upload to `key` is written while it arrives (unique per attempt: two attempts at one key never share a file). */
export function partFilePath(dataDir: string, key: string): string {
  return join(uploadsTmpDir(dataDir), `${key}.${randomBytes(6).toString('hex')}.${process.pid}-${INSTANCE}.part`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when no live process can be writing the partial file `name`. */
function writerGone(name: string, mtimeMs: number): boolean {
  const m = PART_NAME.exec(name);
  if (m) {
    const pid = Number(m[1]);
    // Our pid with another instance: a killed process whose pid we now have.
    if (pid === process.pid ? m[2] !== INSTANCE : !processAlive(pid)) return true;
  }
  // File times are the real clock's, whatever clock the service runs on.
  return Date.now() - mtimeMs > STALE_PART_MS;
}

export interface Freed {
  count: number;
  bytes: number;
}

const none = (): Freed => ({ count: 0, bytes: 0 });

/** Removes one file, adding what it held to `freed`; one already gone (another process was first) is not counted. */
function removeFile(path: string, freed: Freed): void {
  try {
    const size = statSync(path).size;
    rmSync(path);
    freed.count++;
    freed.bytes += size;
  } catch {
    // Gone already.
  }
}

const listDir = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

/** Removes the partial uploads no live process can be writing. */
export function removeDeadPartials(dataDir: string): Freed {
  const freed = none();
  const tmp = uploadsTmpDir(dataDir);
  for (const name of listDir(tmp)) {
    if (!name.endsWith('.part')) continue;
    const path = join(tmp, name);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if (writerGone(name, mtimeMs)) removeFile(path, freed);
  }
  return freed;
}

/**
 * Removes stored files with no row. A row is written when the upload address is handed out, before
 * its file can exist, and deleted before its file: a file listed first and then found without a
 * row can never be wanted again.
 */
export function removeOrphanFiles(db: Database, dataDir: string): Freed {
  const freed = none();
  // The parts of uploads in parts too: a row deleted (expired, discarded) before its parts file.
  for (const dir of [uploadsDir(dataDir), uploadPartsDir(dataDir)]) {
    const names = listDir(dir).filter((n) => uploadKeyPattern.test(n));
    const known = knownUploadKeys(db, names);
    for (const name of names) if (!known.has(name)) removeFile(join(dir, name), freed);
  }
  return freed;
}

/**
 * Deletes unattached complete uploads that arrived before `before` (all with undefined): the rows
 * first, in one statement that also checks no track names them (an attach running at the same
 * time either commits first and keeps the file, or finds no row), then the files.
 */
export function removeUnattached(db: Database, dataDir: string, before: Date | undefined): Freed {
  const rows = db.transaction(() => deleteUnattachedUploads(db, before?.toISOString())).immediate();
  const freed = none();
  for (const r of rows) removeFile(uploadFilePath(dataDir, r.key), freed);
  return freed;
}

export interface SweepReport {
  unattached: Freed;
  orphans: Freed;
  partials: Freed;
}

/**
 * One sweep: expired unattached uploads, abandoned rows (never completed: a single PUT's address
 * long expired, an upload in parts whose last part is older than the expiry) with their parts,
 * orphan files, dead partials.
 */
export function sweepUploads(db: Database, dataDir: string, now: Date, retention: UploadRetention): SweepReport {
  const cutoff = new Date(now.getTime() - retention.unattachedExpiryMs);
  const unattached = removeUnattached(db, dataDir, cutoff);
  // Uploads never completed: a single PUT's address long expired, or an upload in parts that stopped moving (its parts count as partial uploads).
  const abandoned = db.transaction(() => deleteAbandonedUploads(db, cutoff.toISOString())).immediate();
  const partials = removeDeadPartials(dataDir);
  for (const r of abandoned) removeFile(uploadPartsPath(dataDir, r.key), partials);
  return { unattached, orphans: removeOrphanFiles(db, dataDir), partials };
}

export const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** `2 unattached uploads (12.0 MiB), 1 partial upload (3.1 MiB)`; the parts that removed nothing are left out. */
export function describeFreed(r: SweepReport): string {
  const part = (f: Freed, one: string, many: string) => (f.count === 0 ? [] : [`${f.count} ${f.count === 1 ? one : many} (${mib(f.bytes)})`]);
  return [
    ...part(r.unattached, 'unattached upload', 'unattached uploads'),
    ...part(r.orphans, 'orphan file', 'orphan files'),
    ...part(r.partials, 'partial upload', 'partial uploads'),
  ].join(', ');
}

function logSweep(log: Logger, r: SweepReport): void {
  const what = describeFreed(r);
  if (what === '') return;
  const bytes = r.unattached.bytes + r.orphans.bytes + r.partials.bytes;
  // A notice, not a request line: shown by `reldist serve` without --debug.
  (log.notice ?? log.info)(`removed ${what}: ${mib(bytes)} freed`, {
    unattached: r.unattached,
    orphans: r.orphans,
    partials: r.partials,
    bytes,
  });
}

/** Sweeps now and then while the service runs; returns the function that stops it. */
export function startUploadSweeps(deps: ServerDeps, retention: UploadRetention): () => void {
  const sweep = () => {
    try {
      logSweep(deps.log, sweepUploads(deps.db, deps.dataDir, deps.now(), retention));
    } catch (e) {
      // The database busy past its timeout or closing: the next sweep tries again.
      if (deps.db.open) deps.log.error('upload sweep failed', { error: e instanceof Error ? e.message : String(e) });
    }
  };
  // Not at start: the start removes dead partials already (index.ts), and a service started for
  // one CLI command would pay for the rest on every command.
  // A short expiry is swept more often, so that nothing outlives it by much more than a quarter.
  const every = setInterval(sweep, Math.min(retention.sweepMs, Math.max(1000, retention.unattachedExpiryMs / 4))).unref();
  return () => clearInterval(every);
}
