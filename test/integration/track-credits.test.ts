// Credits from the command line: `track edit` sets and removes credits by role, `release edit`
// changes the release's artists by role and says what becomes of the tracks' artists; the submit's
// hints name the command that fixes each problem.
import { beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli();
const audio = 'examples/first-release/audio';
let id: string;

beforeAll(async () => {
  const release = await cli.json([
    'release',
    'create',
    '--type',
    'ep',
    '--title',
    'Harbour Lights',
    '--artist',
    'Nina Vale',
    '--label',
    'Northern Lights Records',
  ]);
  id = String(release.id);
  const r = await cli.run(['track', 'upload', id, `${audio}/first-light.flac`, `${audio}/evening-tide.flac`]);
  expect(r.code, r.stderr).toBe(0);
});

describe('track edit credits', () => {
  it('sets each role given, keeps the others, and removes a role given ""', async () => {
    let t = await cli.json([
      'track',
      'edit',
      id,
      '1',
      '--composer',
      'Ada Lind',
      '--composer',
      'Tom Ash',
      '--lyricist',
      'Bo Berg',
      '--contributor',
      'mastering engineer=Jo Park',
      '--featuring',
      'Kai',
    ]);
    expect(t.contributors).toEqual([
      { name: 'Ada Lind', role: 'composer' },
      { name: 'Tom Ash', role: 'composer' },
      { name: 'Bo Berg', role: 'lyricist' },
      { name: 'Jo Park', role: 'mastering_engineer' },
    ]);
    expect(t.artists).toEqual([
      { name: 'Nina Vale', role: 'primary' },
      { name: 'Kai', role: 'featuring' },
    ]);
    t = await cli.json(['track', 'edit', id, '1', '--composer', 'Ada Lind', '--contributor', 'lyricist=', '--featuring', '']);
    expect(t.contributors).toEqual([
      { name: 'Ada Lind', role: 'composer' },
      { name: 'Jo Park', role: 'mastering_engineer' },
    ]);
    expect(t.artists).toEqual([{ name: 'Nina Vale', role: 'primary' }]);
    // The other track is untouched.
    expect((await cli.json<any[]>(['track', 'list', id]))[1].contributors).toEqual([]);
  });

  it('a role it does not know is a usage error naming the flag', async () => {
    const r = await cli.run(['track', 'edit', id, '1', '--contributor', 'drummer=Sam']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --contributor: expected ROLE=NAME with ROLE one of primary, featuring, with, remixer, composer, lyricist/);
  });

  it('the submit hint names the command, and that command fixes it', async () => {
    const dry = await cli.run(['release', 'submit', id, '--dry-run'], { tty: true });
    expect(dry.code).toBe(3);
    expect(dry.stdout).toContain(
      `composer_missing: track 2 "Evening Tide" has no composer (hint: Add at least one contributor with role composer; add one: \`reldist track edit ${id} 2 --composer NAME\`)`,
    );
    expect((await cli.run(['track', 'edit', id, '2', '--composer', 'Ada Lind'])).code).toBe(0);
    const again = await cli.run(['release', 'submit', id, '--dry-run']);
    expect(again.stdout).not.toContain('composer_missing');
  });
});

describe('release edit --artist and the tracks', () => {
  it('without a terminal, says the tracks keep their artists and how to change them', async () => {
    const r = await cli.run(['release', 'edit', id, '--artist', 'Lena Voss']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'note: the tracks keep their own artists: all 2 tracks still credit Nina Vale; pass --tracks-too to change them as well, or --no-tracks-too to say they stay\n',
    );
    const release = await cli.json(['release', 'get', id]);
    expect(release.artists).toEqual([{ name: 'Lena Voss', role: 'primary' }]);
    expect((await cli.json<any[]>(['track', 'list', id])).map((t) => t.artists[0].name)).toEqual(['Nina Vale', 'Nina Vale']);
    const quiet = await cli.run(['release', 'edit', id, '--artist', 'Nina Vale', '--no-tracks-too']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it("--tracks-too changes the tracks that credited the same artists, and keeps the others' own", async () => {
    // Track 2 gets an artist of its own: it no longer follows the release.
    expect((await cli.run(['track', 'edit', id, '2', '--artist', 'Tom Ash'])).code).toBe(0);
    const r = await cli.run(['release', 'edit', id, '--artist', 'Lena Voss', '--featuring', 'Kai', '--tracks-too', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const tracks = await cli.json<any[]>(['track', 'list', id]);
    expect(tracks[0].artists).toEqual([
      { name: 'Lena Voss', role: 'primary' },
      { name: 'Kai', role: 'featuring' },
    ]);
    expect(tracks[1].artists).toEqual([
      { name: 'Tom Ash', role: 'primary' },
      { name: 'Kai', role: 'featuring' },
    ]);
    expect((await cli.json(['release', 'get', id])).artists).toEqual([
      { name: 'Lena Voss', role: 'primary' },
      { name: 'Kai', role: 'featuring' },
    ]);
  });

  it('on a terminal, asks; a yes changes the tracks too', async () => {
    const asked: string[] = [];
    const { code, stderr } = await cli.run(['release', 'edit', id, '--artist', 'Mara Quist'], { tty: true, person: { answer: true, asked } });
    expect(code, stderr).toBe(0);
    expect(asked).toEqual([`1 of 2 tracks of release ${id} credit Lena Voss as the release did; change them too?`]);
    expect(stderr).toContain(`Changed the artists of 1 track of release ${id} the same way`);
    const tracks = await cli.json<any[]>(['track', 'list', id]);
    expect(tracks.map((t) => t.artists.find((a: any) => a.role === 'primary').name)).toEqual(['Mara Quist', 'Tom Ash']);
  });
});
