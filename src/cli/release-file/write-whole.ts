// A file written whole or not at all: beside its place under a name of its own, then renamed over it.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

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
