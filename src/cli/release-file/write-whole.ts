// A file written whole or not at all. `writeWhole`: beside its place under a name of its own, then
// renamed over it (replaces a file safely). `writeNew`: created in place with `wx` (fails if the
// name exists, so it never replaces anything), removed again if writing it fails: one rename fewer
// per file, for a folder known not to hold the name.
import { randomBytes } from 'node:crypto';
import { open, rename, rm, writeFile } from 'node:fs/promises';

/** `mode`: 0644 unless the text holds what only its owner may read (a signed address: 0600). */
export async function writeWhole(path: string, text: string, mode = 0o644): Promise<void> {
  // Its own name per write: runs at once (in one process too) never share a temporary file.
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Creates `path` with `text`; EEXIST if it is there (left as it was). A failed write removes what it created. */
export async function writeNew(path: string, text: string, mode = 0o644): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(path, { force: true });
    throw err;
  }
}
