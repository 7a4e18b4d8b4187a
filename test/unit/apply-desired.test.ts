import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDesired } from '../../src/cli/apply/desired.js';
import { hashFile } from '../../src/client/index.js';
import type { ReleasePlan } from '../../src/cli/release-file/load.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('apply: the desired state from the local files', () => {
  it('hashes each audio file and asks for a title only where the file has none', async () => {
    const plan: ReleasePlan = {
      name: 'release.yaml',
      release: { type: 'single', title: 'T', artists: [{ name: 'A', role: 'primary' }], label: 'L' },
      tracks: [
        { path: '/a.flac', written: 'a.flac', fields: { title: 'Given' } },
        { path: '/b.flac', written: 'b.flac', fields: {} },
      ],
      delivery: undefined,
      video: undefined,
    };
    const asked: string[] = [];
    const desired = await readDesired(plan, {
      hashFile: async (p) => (p === '/a.flac' ? 'a' : 'b').repeat(64),
      titleOf: async (p) => {
        asked.push(p);
        return 'From Tags';
      },
    });
    expect(desired.audioSha256).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    expect(desired.defaultTitles).toEqual(['Given', 'From Tags']);
    expect(asked).toEqual(['/b.flac']);
    expect(desired.plan).toBe(plan);
  });

  it("hashes a file streamed through sha256 (the client's hashFile, which apply reads audio with)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reldist-apply-'));
    dirs.push(dir);
    const bytes = Buffer.alloc(300_000, 7);
    await writeFile(join(dir, 'x.wav'), bytes);
    expect((await hashFile(join(dir, 'x.wav'))).sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
