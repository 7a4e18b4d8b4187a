// `reldist release edit` against the real reference service: flags, parts from files and stdin,
// a failed part undone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli } from './cli-harness.js';
import { createReleases } from './release-fixtures.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const { run, json } = cli;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-release-'));
  await createReleases(run);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release edit', () => {
  it('changes metadata, delivery and video from flags', async () => {
    const r = await run([
      'release',
      'edit',
      '1',
      '--title',
      'Northern Sky',
      '--p-line',
      '2026 Northern Lights Records',
      '--release-date',
      '2030-02-01',
      '--territories',
      'exclude:kp',
      '--video-enabled',
      'yes',
      '--content-id',
      'track',
    ]);
    await expect(transcript(r)).toMatchFileSnapshot(golden('edit-flags.piped'));
    const after = await json(['release', 'get', '1']);
    expect(after.delivery).toMatchObject({ release_date: '2030-02-01', territories: { mode: 'exclude', countries: ['KP'] } });
    expect(after.video).toMatchObject({ enabled: true, content_id: { enabled: true, policy: 'track' } });
  });

  it('reads parts from files (and stdin), flags winning', async () => {
    await writeFile(join(work, 'meta.yaml'), 'genre: Folk\nversion: Live\ncatalog_number: 007\n');
    const r = await run(['release', 'edit', '1', '--metadata', join(work, 'meta.yaml'), '--genre', 'Jazz', '--delivery', '-', '--json'], {
      stdin: '{"price_tier": "mid"}',
    });
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(r.stdout);
    expect(after).toMatchObject({ genre: 'Jazz', version: 'Live', catalog_number: '007', delivery: { price_tier: 'mid' } });
  });

  it('names the file, line and field of a bad settings file', async () => {
    await writeFile(join(work, 'video.yaml'), 'enabled: true\ncontent_id:\n  policy: sell\n');
    const r = await run(['release', 'edit', '1', '--video', join(work, 'video.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: ${join(work, 'video.yaml')}:3: content_id.policy: expected one of monetize, track, block, got "sell"\nhint: fix the fields named above and run again\n`,
    );
  });

  it('puts the metadata back when the delivery part is refused', async () => {
    const before = await json(['release', 'get', '1']);
    const r = await run(['release', 'edit', '1', '--title', 'Changed Title', '--platforms', 'no_such_store']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^error: release 1: delivery refused: .+; the metadata change was undone, nothing changed\n/);
    const after = await json(['release', 'get', '1']);
    expect(after.title).toBe(before.title);
    expect(after.delivery.platforms).toEqual(before.delivery.platforms);
  });

  it('adds a featured artist without dropping the primary ones', async () => {
    const r = await run(['release', 'edit', '1', '--featuring', 'Kai Moreno', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).artists).toEqual([
      { name: 'Nina Vale', role: 'primary' },
      { name: 'Kai Moreno', role: 'featuring' },
    ]);
  });

  it('says there is nothing to change', async () => {
    const r = await run(['release', 'edit', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: nothing to change\n/);
  });
});
