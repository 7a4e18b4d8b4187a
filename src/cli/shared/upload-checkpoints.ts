// The checkpoints of uploads in parts: one small JSON file per file being uploaded (to one release
// of one service), in <config dir>/uploads, owner only (0600 files in a 0700 folder). What is kept:
// the upload's key (it names the upload to its owner's token and grants nothing alone: the signed
// addresses are asked for again), the file's size, mtime and inode, the part size, the file's
// sha256 once computed, the parts known held. Never an address, a signature or a token. A run
// that was killed or failed finds its checkpoint and continues the upload; a file that changed
// since discards it (client/upload-parts.ts). Removed once the file is attached to its track.
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { CheckpointStore, UploadCheckpoint } from '../../client/index.js';
import type { Env } from '../io.js';
import { configDir } from '../paths.js';

/** Checkpoints untouched this long are removed when another is written: their uploads have expired on the service. */
const STALE_MS = 7 * 24 * 3_600_000;

/** <config dir>/uploads (RELDIST_CONFIG_DIR moves it with the config). */
export const checkpointsDir = (env: Env): string => join(configDir(env), 'uploads');

/**
 * The checkpoint file of `file` uploaded to the service at `baseUrl` for `scope`: `release:<id>`
 * (the release it goes to: two commands sending one file to two releases at once keep apart), or
 * `create` for `release create`, whose run again after a kill makes a new draft (the service then
 * moves the upload there).
 */
export function checkpointPath(env: Env, baseUrl: string, file: string, scope: string): string {
  const id = createHash('sha256')
    .update(`${baseUrl}\n${scope}\n${resolve(file)}`)
    .digest('hex')
    .slice(0, 32);
  return join(checkpointsDir(env), `${id}.json`);
}

let pruned = false;

/** Removes checkpoints nobody has written for a week (once per process). */
async function pruneStale(dir: string): Promise<void> {
  if (pruned) return;
  pruned = true;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > STALE_MS) await rm(path, { force: true });
  }
}

function parse(text: string): UploadCheckpoint | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const c = data as Partial<UploadCheckpoint>;
  const ints = [c.size, c.mtimeMs, c.ino, c.partSize];
  if (typeof c.key !== 'string' || !ints.every((n) => typeof n === 'number') || !Array.isArray(c.done)) return undefined;
  return {
    key: c.key,
    size: c.size!,
    mtimeMs: c.mtimeMs!,
    ino: c.ino!,
    partSize: c.partSize!,
    ...(typeof c.sha256 === 'string' ? { sha256: c.sha256 } : {}),
    done: c.done.filter((n): n is number => typeof n === 'number'),
  };
}

/** The store of one file's checkpoint. Writes are atomic (a temporary file renamed) and one at a time. */
export function checkpointStore(env: Env, baseUrl: string, file: string, scope: string): CheckpointStore {
  const path = checkpointPath(env, baseUrl, file, scope);
  const dir = checkpointsDir(env);
  let writing: Promise<void> = Promise.resolve();
  // The folder made (and closed to others) once per store, not at each of an upload's hundreds of saves.
  let folderReady = false;
  const makeFolder = async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A folder made before, by hand or another tool, may be open to others.
    if (process.platform !== 'win32' && ((await stat(dir)).mode & 0o077) !== 0) await chmod(dir, 0o700);
    folderReady = true;
  };
  const write = async (c: UploadCheckpoint) => {
    if (!folderReady) await makeFolder();
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    const text = `${JSON.stringify({ file: resolve(file), scope, ...c })}\n`;
    try {
      await writeFile(tmp, text, { mode: 0o600 });
    } catch (e) {
      // The folder was removed meanwhile: made again, once.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await makeFolder();
      await writeFile(tmp, text, { mode: 0o600 });
    }
    await rename(tmp, path);
    await pruneStale(dir);
  };
  return {
    async load() {
      const text = await readFile(path, 'utf8').catch(() => undefined);
      return text === undefined ? undefined : parse(text);
    },
    save(c) {
      const copy = { ...c, done: [...c.done].sort((a, b) => a - b) };
      writing = writing.catch(() => undefined).then(() => write(copy));
      return writing;
    },
    async remove() {
      await writing.catch(() => undefined);
      await rm(path, { force: true });
      // And what a run killed between writing and renaming left of it.
      const stem = `${basename(path)}.`;
      for (const name of await readdir(dir).catch(() => [] as string[]))
        if (name.startsWith(stem) && name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
    },
  };
}
