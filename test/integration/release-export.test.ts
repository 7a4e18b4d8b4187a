// `reldist release export` against the real reference service: releases made by `release create`
// (from files and from flags, then edited, as the wizard and a web form leave them) written as
// release files, and `release apply --plan` right after finding every one unchanged; the files'
// audio referred to by sha256; no overwrite without --force; releases that cannot be exported.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { testImages } from '../helpers/images.js';
import { useCli } from './cli-harness.js';

const cli = useCli();
let work: string;

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Varied releases: every field a release file can set, in the combinations that trip a round trip. */
function variants(a: string, b: string, c: string, d: string): Record<string, string> {
  return {
    'EXP-0001': `type: single
title: Plain Single
artists: [{ name: Nina Vale, role: primary }]
label: Northern Lights Records
catalog_number: EXP-0001
tracks:
  - file: ${a}
    title: Only Track
`,
    'EXP-0002': `type: album
title: "1999"
version: Deluxe Edition
artists:
  - { name: Nina Vale, role: primary }
  - { name: "Lena Voss", role: featuring }
label: Northern Lights Records
catalog_number: exp-0002
upc: "012345678905"
genre: electronic
subgenre: House
language: de
explicit: explicit
original_release_date: "2001-02-03"
p_line: { year: 2026, owner: "Northern Lights Records: ℗ #1" }
c_line: { year: 2025, owner: Nina Vale }
artwork: { url: "https://cdn.example/art/2.jpg", width: 3000, height: 3000, format: jpg, color_space: rgb }
tracks:
  - file: ${a}
    title: "Yes"
    version: Radio Edit
    disc: 1
    contributors: [{ name: Nina Vale, role: composer }, { name: "O'Brien, Jr.", role: producer }]
    isrc: GB-NLR-26-00001
    audio_language: instrumental
    preview_start_seconds: 12
  - file: ${b}
    title: "Second: the return"
    disc: 1
    explicit: not_explicit
    artists: [{ name: Lena Voss, role: primary }]
  - file: ${c}
    title: Disc Two Opener
    disc: 2
    position: 1
    audio_language: en
  - file: ${d}
    title: Disc Two Closer
    disc: 2
    position: 2
delivery:
  platforms: [streaming_d, streaming_a]
  territories: { mode: exclude, countries: [KP, DE] }
  release_date: "2030-01-11"
  preorder_date: "2029-12-01"
  price_tier: premium
video:
  enabled: true
  art_tracks: true
  content_id: { enabled: true, policy: block }
`,
    'EXP-0003': `type: ep
title: No Tracks Yet
artists: [{ name: Nina Vale, role: primary }]
label: Northern Lights Records
catalog_number: " EXP-0003 "
explicit: clean
delivery:
  platforms: all
  territories: { mode: include, countries: [NO, SE] }
  price_tier: budget
video: { enabled: false, art_tracks: false, content_id: { enabled: false, policy: track } }
`,
  };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-export-'));
  const a = join(work, 'a.wav');
  const b = join(work, 'b.wav');
  await writeFile(a, makeWav({ seconds: 30 }));
  await writeFile(b, makeWav({ seconds: 31 }));
  // Each track its own recording: a release file with the same audio twice is refused.
  const [c, d] = [join(work, 'c.wav'), join(work, 'd.wav')];
  await writeFile(c, makeWav({ seconds: 32 }));
  await writeFile(d, makeWav({ seconds: 33 }));
  for (const [cn, text] of Object.entries(variants(a, b, c, d))) {
    const file = join(work, `${cn}.src.yaml`);
    await writeFile(file, text);
    const r = await cli.run(['release', 'create', '--file', file]);
    expect(r.code, r.stderr).toBe(0);
  }
  // From flags, then edited, as a form on the web leaves a release.
  const flags = await cli.run([
    'release',
    'create',
    '--type',
    'single',
    '--title',
    'From Flags',
    '--artist',
    'Nina Vale',
    '--featuring',
    'Lena Voss',
    '--label',
    'Northern Lights Records',
    '--catalog-number',
    'EXP/0004',
    '--json',
  ]);
  expect(flags.code, flags.stderr).toBe(0);
  const id = JSON.parse(flags.stdout).id as number;
  const edit = await cli.run([
    'release',
    'edit',
    String(id),
    '--genre',
    'Pop',
    '--release-date',
    '2031-05-05',
    '--territories',
    'include:DE,AT',
    '--video-enabled',
    'yes',
  ]);
  expect(edit.code, edit.stderr).toBe(0);
  const up = await cli.run(['track', 'upload', String(id), a]);
  expect(up.code, up.stderr).toBe(0);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release export', () => {
  it('writes one file per release that apply --plan finds unchanged (0 changes for every one)', async () => {
    const dir = join(work, 'catalog');
    const r = await cli.run(['release', 'export', '--all', '--dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(['written', 'written', 'written', 'written']);
    expect((await readdir(dir)).sort()).toEqual(['EXP-0001.yaml', 'EXP-0003.yaml', 'EXP_0004.yaml', 'exp-0002.yaml']);

    const plan = await cli.run(['release', 'apply', dir, '--plan', '--json']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const planned = jsonLines(plan.stdout);
    expect(planned).toHaveLength(4);
    for (const p of planned)
      expect({ cn: p.catalog_number, action: p.action, changes: p.changes }).toEqual({ cn: p.catalog_number, action: 'unchanged', changes: [] });

    // The audio is referred to by the service's sha256; the multi-disc release keeps its places.
    const album = parse(await readFile(join(dir, 'exp-0002.yaml'), 'utf8'));
    expect(album.tracks.map((t: { file: string }) => t.file)).toEqual(album.tracks.map(() => expect.stringMatching(/^sha256:[0-9a-f]{64}$/)));
    expect(album.tracks.map((t: { disc: number; position?: number; title: string }) => [t.disc, t.position, t.title])).toEqual([
      [1, undefined, 'Yes'],
      [1, undefined, 'Second: the return'],
      [2, undefined, 'Disc Two Opener'],
      [2, undefined, 'Disc Two Closer'],
    ]);
    // Everything the service holds is in the file (a field left out would also plan as unchanged).
    const sha = expect.stringMatching(/^sha256:[0-9a-f]{64}$/);
    expect(album).toEqual({
      type: 'album',
      title: '1999',
      version: 'Deluxe Edition',
      artists: [
        { name: 'Nina Vale', role: 'primary' },
        { name: 'Lena Voss', role: 'featuring' },
      ],
      label: 'Northern Lights Records',
      catalog_number: 'exp-0002',
      upc: '012345678905',
      genre: expect.stringMatching(/^electronic$/i),
      subgenre: 'House',
      language: 'de',
      p_line: { year: 2026, owner: 'Northern Lights Records: ℗ #1' },
      c_line: { year: 2025, owner: 'Nina Vale' },
      original_release_date: '2001-02-03',
      explicit: 'explicit',
      artwork: { url: 'https://cdn.example/art/2.jpg', width: 3000, height: 3000, format: 'jpg', color_space: 'rgb' },
      tracks: [
        {
          file: sha,
          title: 'Yes',
          version: 'Radio Edit',
          disc: 1,
          contributors: [
            { name: 'Nina Vale', role: 'composer' },
            { name: "O'Brien, Jr.", role: 'producer' },
          ],
          isrc: 'GBNLR2600001',
          audio_language: 'instrumental',
          preview_start_seconds: 12,
        },
        { file: sha, title: 'Second: the return', disc: 1, artists: [{ name: 'Lena Voss', role: 'primary' }], explicit: 'not_explicit' },
        { file: sha, title: 'Disc Two Opener', disc: 2, audio_language: 'en' },
        { file: sha, title: 'Disc Two Closer', disc: 2 },
      ],
      delivery: {
        platforms: expect.arrayContaining(['streaming_a', 'streaming_d']),
        territories: { mode: 'exclude', countries: expect.arrayContaining(['DE', 'KP']) },
        release_date: '2030-01-11',
        preorder_date: '2029-12-01',
        price_tier: 'premium',
      },
      video: { enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'block' } },
    });
  });

  it('exports named releases, as JSON too; a file in the way is kept unless --force', async () => {
    const dir = join(work, 'named');
    const first = await cli.run(['release', 'export', 'EXP-0001', '--dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\d+\tEXP-0001\twritten\tEXP-0001\.yaml\t$/m);
    await writeFile(join(dir, 'EXP-0001.yaml'), 'mine\n');

    const again = await cli.run(['release', 'export', 'EXP-0001', 'EXP-0003', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('1 release file already in');
    expect(again.stderr).toContain('EXP-0001.yaml; nothing was written');
    expect(await readFile(join(dir, 'EXP-0001.yaml'), 'utf8')).toBe('mine\n');
    expect(await readdir(dir)).toEqual(['EXP-0001.yaml']);

    const forced = await cli.run(['release', 'export', 'EXP-0001', 'EXP-0003', '--dir', dir, '--force', '--format', 'json']);
    expect(forced.code, forced.stderr).toBe(0);
    const json = JSON.parse(await readFile(join(dir, 'EXP-0003.json'), 'utf8'));
    expect(json.delivery.territories).toEqual({ mode: 'include', countries: ['NO', 'SE'] });
    const plan = await cli.run(['release', 'apply', join(dir, 'EXP-0003.json'), '--plan']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^= EXP-0003 /m);
  });

  it('lists a release without a catalog number with the reason, writes the others, exits 1', async () => {
    const made = await cli.run(['release', 'create', '--type', 'single', '--title', 'Nameless', '--artist', 'Nina Vale', '--label', 'NLR', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).id as number;
    const dir = join(work, 'with-nameless');
    const r = await cli.run(['release', 'export', '--all', '--dir', dir, '--json']);
    expect(r.code).toBe(1);
    const skipped = jsonLines(r.stdout).filter((l) => l.outcome === 'skipped');
    expect(skipped).toEqual([{ release_id: id, catalog_number: null, file: null, outcome: 'skipped', reason: expect.stringContaining('no catalog number') }]);
    expect(r.stderr).toContain(`1 of 5 releases not exported: release ${id}`);
    expect(await readdir(dir)).toHaveLength(4);
    const del = await cli.run(['release', 'delete', String(id), '--yes']);
    expect(del.code, del.stderr).toBe(0);
  });

  it('writes a track without audio yet without `file`, and apply --plan finds it unchanged', async () => {
    const src = join(work, 'no-audio-src');
    await rm(src, { recursive: true, force: true });
    await mkdir(src, { recursive: true });
    await writeFile(
      join(src, 'EXP-0009.yaml'),
      `type: single
title: Audio Later
artists: [{ name: Nina Vale, role: primary }]
label: Northern Lights Records
catalog_number: EXP-0009
tracks:
  - title: Not Mastered Yet
`,
    );
    const applied = await cli.run(['release', 'apply', src]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const dir = join(work, 'no-audio');
    const r = await cli.run(['release', 'export', 'EXP-0009', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const data = parse(await readFile(join(dir, 'EXP-0009.yaml'), 'utf8'));
    expect(data.tracks).toEqual([{ title: 'Not Mastered Yet' }]);
    const plan = await cli.run(['release', 'apply', dir, '--plan']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^= EXP-0009 /m);
    const del = await cli.run(['release', 'delete', 'EXP-0009', '--yes']);
    expect(del.code, del.stderr).toBe(0);
  });

  it('refuses --with-audio (the service has no download), and a file of sha256 audio in release create', async () => {
    const r = await cli.run(['release', 'export', '--all', '--dir', join(work, 'x'), '--with-audio']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-audio: the service offers no download of audio');
    const c = await cli.run(['release', 'create', '--file', join(work, 'catalog', 'EXP-0001.yaml')]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('tracks.0.file: sha256:… refers to audio already on the service');
  });

  it('refers to an uploaded cover by its sha256: apply --plan finds it unchanged, and names a cover the service does not have', async () => {
    const cover = join(work, 'cover.jpg');
    await writeFile(cover, (await testImages()).good);
    const made = await cli.run([
      'release',
      'create',
      '--type',
      'single',
      '--title',
      'Cover Round Trip',
      '--artist',
      'Nina Vale',
      '--label',
      'Northern Lights Records',
      '--catalog-number',
      'EXP-COVER',
      '--artwork',
      cover,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const dir = join(work, 'covers');
    await rm(dir, { recursive: true, force: true });
    const r = await cli.run(['release', 'export', 'EXP-COVER', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const [name] = await readdir(dir);
    const text = await readFile(join(dir, name!), 'utf8');
    expect(parse(text).artwork).toMatch(/^sha256:[0-9a-f]{64}$/);
    const plan = await cli.run(['release', 'apply', dir, '--plan']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/\b0 to create, 0 to update\b/);
    await writeFile(join(work, 'other-cover.yaml'), text.replace(/sha256:[0-9a-f]{64}/, `sha256:${'1'.repeat(64)}`));
    const other = await cli.run(['release', 'apply', join(work, 'other-cover.yaml'), '--plan']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/artwork: the cover sha256:111111111111… is not the service's, which has another cover/);
  });

  it('apply names the track whose sha256 the service does not have (nothing to upload)', async () => {
    const file = join(work, 'catalog', 'EXP-0001.yaml');
    const text = await readFile(file, 'utf8');
    const wrong = join(work, 'wrong');
    await rm(wrong, { recursive: true, force: true });
    await writeFile(join(work, 'wrong.yaml'), text.replace(/sha256:[0-9a-f]{64}/, `sha256:${'0'.repeat(64)}`));
    const plan = await cli.run(['release', 'apply', join(work, 'wrong.yaml'), '--plan']);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/wrong\.yaml: tracks\.0\.file: track 1 refers to audio sha256:000000000000… but the service has other audio there/);
    const applied = await cli.run(['release', 'apply', join(work, 'wrong.yaml'), '--json']);
    expect(applied.code).toBe(1);
    expect(jsonLines(applied.stdout)[0]).toMatchObject({ outcome: 'failed', error: { message: expect.stringContaining('nothing to upload') } });
  });
});
