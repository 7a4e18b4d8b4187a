// Simultaneous `track upload`s to one release: each attaches its track with If-Match and, when
// another got there first (412), reads the list again and retries, so no track is lost.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
let work: string;

const run = (argv: string[]): Promise<RunResult> => cli.run(argv);
const audio = 'examples/first-release/audio/first-light.flac';

async function newRelease(title: string): Promise<string> {
  const r = await run(['release', 'create', '--type', 'album', '--title', title, '--artist', 'Nina Vale', '--label', 'Northern Lights Records', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return String(JSON.parse(r.stdout).id);
}

/**
 * `count` copies of a small FLAC, named part-01.flac…, each uploaded by its own `track upload` at
 * once. Copies are the same audio, which `track upload` refuses on a release that has it unless
 * --allow-duplicate: the subject here is the track list under concurrent writes.
 */
async function uploadAtOnce(releaseId: string, count: number, prefix: string): Promise<RunResult[]> {
  const files = Array.from({ length: count }, (_, i) => join(work, `${prefix}-${String(i + 1).padStart(2, '0')}.flac`));
  await Promise.all(files.map((f) => copyFile(audio, f)));
  return Promise.all(files.map((f) => run(['track', 'upload', releaseId, f, '--allow-duplicate'])));
}

async function filenames(releaseId: string): Promise<string[]> {
  const r = await run(['track', 'list', releaseId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ position: number; file: { filename: string } }>).map((t) => t.file.filename).sort();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-concurrent-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('track upload at the same moment', () => {
  it('three uploads to one release: all exit 0 and all three tracks are attached', async () => {
    const id = await newRelease('Three At Once');
    const results = await uploadAtOnce(id, 3, 'three');
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await filenames(id)).toEqual(['three-01.flac', 'three-02.flac', 'three-03.flac']);
  });

  it('ten uploads to one release that already has a track: every track kept, positions 1 to 11', { timeout: 60_000 }, async () => {
    const id = await newRelease('Ten At Once');
    expect((await run(['track', 'upload', id, audio])).code).toBe(0);
    const results = await uploadAtOnce(id, 10, 'ten');
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const names = await filenames(id);
    expect(names).toEqual(['first-light.flac', ...Array.from({ length: 10 }, (_, i) => `ten-${String(i + 1).padStart(2, '0')}.flac`)]);
    const list = JSON.parse((await run(['track', 'list', id, '--json'])).stdout) as Array<{ position: number }>;
    expect(list.map((t) => t.position)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('an edit and uploads at the same moment: the edit and every track survive', { timeout: 60_000 }, async () => {
    const id = await newRelease('Edit While Uploading');
    expect((await run(['track', 'upload', id, audio])).code).toBe(0);
    const [edit, ...uploads] = await Promise.all([
      run(['track', 'edit', id, '1', '--title', 'Renamed']),
      ...['a', 'b', 'c'].map(async (p) => (await uploadAtOnce(id, 1, `edit-${p}`))[0]!),
    ]);
    expect(edit!.code, edit!.stderr).toBe(0);
    for (const r of uploads) expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse((await run(['track', 'list', id, '--json'])).stdout) as Array<{ title: string; file: { filename: string } }>;
    expect(list).toHaveLength(4);
    expect(list[0]!.title).toBe('Renamed');
  });
});
