// `reldist prefs label|artist` against the real reference service.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/prefs/${name}.txt`;
const { run } = cli;
const json = (argv: string[], token?: string) => cli.json(argv, token ? { token } : {});
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-prefs-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('prefs label', () => {
  it('shows the label settings and a page of its artists (piped, terminal)', async () => {
    await expect(transcript(await run(['prefs', 'label']))).toMatchFileSnapshot(golden('label.piped'));
    await expect(transcript(await run(['prefs', 'label', '--per-page', '3'], { tty: true }))).toMatchFileSnapshot(golden('label.tty'));
    const page = await json(['prefs', 'label', '--search', 'lena']);
    expect(page.artists.map((a: any) => a.name)).toEqual(['Lena Voss']);
    expect((await json(['prefs', 'label', '--limit', '2'])).meta.per_page).toBe(2);
  });

  it('saves settings and new artists from flags and from a file', async () => {
    const r = await run(['prefs', 'label', '--default-genre', 'Electronic', '--add-artist', 'Kai Moreno']);
    expect(r.code, r.stderr).toBe(0);
    const data = await json(['prefs', 'label', '--search', 'kai moreno']);
    expect(data.label.default_genre).toBe('Electronic');
    expect(data.artists.map((a: any) => a.name)).toEqual(['Kai Moreno']);
    await writeFile(
      join(work, 'label.yaml'),
      `default_language: de\nartists:\n  - id: ${data.artists[0].id}\n    name: Kai Moreno\n    platforms:\n      - { platform: store_c, mode: new }\n`,
    );
    expect((await run(['prefs', 'label', '--file', join(work, 'label.yaml')])).code).toBe(0);
    const after = await json(['label', 'artists', 'get', String(data.artists[0].id)]);
    expect(after.platforms).toEqual([{ platform: 'store_c', mode: 'new', profile: null }]);
  });

  it('a bad --page is refused before anything is saved', async () => {
    const before = (await json(['prefs', 'label'])).label.name;
    const r = await run(['prefs', 'label', '--name', 'Renamed Records', '--page', 'two']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --page: expected a whole number from 1 to 100000, got "two"\n');
    expect((await json(['prefs', 'label'])).label.name).toBe(before);
  });

  it('names the field of a bad file', async () => {
    await writeFile(join(work, 'bad.yaml'), 'artists:\n  - name: X\n    platforms:\n      - { platform: store_c, mode: existing }\n');
    const r = await run(['prefs', 'label', '--file', join(work, 'bad.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*bad\.yaml:4: artists\.0\.platforms\.0\.profile_id: profile_id is required with mode "existing"\n/);
  });
});

describe('prefs artist', () => {
  it("shows and saves the artist account's profile choices", async () => {
    const token = cli.server.tokens.artist;
    await expect(transcript(await run(['prefs', 'artist'], { token }))).toMatchFileSnapshot(golden('artist-before.piped'));
    const r = await run(['prefs', 'artist', '--platform', 'streaming_a=cn3Vv2aLARkJ1of1D5NpI2', '--platform', 'store_c=new'], { token, tty: true });
    await expect(transcript(r)).toMatchFileSnapshot(golden('artist-after.tty'));
    const data = await json(['prefs', 'artist'], token);
    expect(data.platforms.map((p: any) => [p.platform, p.mode])).toEqual(
      expect.arrayContaining([
        ['streaming_a', 'existing'],
        ['store_c', 'new'],
      ]),
    );
    const bad = await run(['prefs', 'artist', '--platform', 'streaming_a'], { token });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --platform: expected <platform>=<profile id> or <platform>=new, got "streaming_a"\n/);
  });

  it('tells a label account where its preferences are', async () => {
    const r = await run(['prefs', 'artist']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^error: .*label/);
  });
});
