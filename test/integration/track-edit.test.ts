// `reldist track edit`: one track's fields changed by position or id, the others untouched;
// bad values named by their flag; --json prints the track.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const run = (argv: string[]): Promise<RunResult> => cli.run(argv);
const json = async <T = any>(argv: string[]): Promise<T> => {
  const r = await run([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};
const audio = 'examples/first-release/audio';
let before: any[];

beforeAll(async () => {
  // Release 1 with two tracks: ids 1 and 2 at positions 1 and 2; then reordered so that id and position differ.
  for (const argv of [
    ['release', 'create', '--type', 'ep', '--title', 'Harbour Lights', '--artist', 'Nina Vale', '--label', 'Northern Lights Records'],
    ['track', 'upload', '1', `${audio}/first-light.flac`, `${audio}/evening-tide.flac`],
  ]) {
    const r = await run(argv);
    expect(r.code, r.stderr).toBe(0);
  }
  const r = await cli.run(['track', 'set', '1', '--file', '-'], { stdin: '[{"id": 2, "title": "Evening Tide"}, {"id": 1, "title": "First Light"}]' });
  expect(r.code, r.stderr).toBe(0);
  before = await json(['track', 'list', '1']);
});

afterAll(() => {});

describe('track edit', () => {
  it('changes the fields given of the track at a position, and nothing else', async () => {
    const track = await json([
      'track',
      'edit',
      '1',
      'id:1',
      '--title',
      'First Light',
      '--track-version',
      'Radio Edit',
      '--isrc',
      'gb-nlr-26-00001',
      '--explicit',
      'clean',
      '--audio-language',
      'EN',
      '--preview-start',
      '45',
      '--artist',
      'Nina Vale',
      '--artist',
      'Tom Ash',
    ]);
    expect(track).toMatchObject({
      id: 1,
      position: 2,
      title: 'First Light',
      version: 'Radio Edit',
      isrc: 'GBNLR2600001',
      explicit: 'clean',
      audio_language: 'en',
      preview_start_seconds: 45,
      artists: [
        { name: 'Nina Vale', role: 'primary' },
        { name: 'Tom Ash', role: 'primary' },
      ],
    });
    expect(track.file.filename).toBe('first-light.flac');
    const after = await json<any[]>(['track', 'list', '1']);
    // The other track is as it was (the service stamps every track of a rewritten list).
    const { updated_at: _a, ...other } = after[0];
    const { updated_at: _b, ...otherBefore } = before[0];
    expect(other).toEqual(otherBefore);
    // By disc and position: 1-2 is the track at position 2 (id 1); "" clears.
    const edited = await json(['track', 'edit', '1', '1-2', '--track-version', '', '--preview-start', '']);
    expect(edited).toMatchObject({ id: 1, version: null, preview_start_seconds: null, isrc: 'GBNLR2600001' });
  });

  it('says so when a number is both a position and an id, and accepts disc-position', async () => {
    const r = await run(['track', 'edit', '1', '1', '--title', 'X']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: track: 1 could be track 1 "First Light" at position 2 or track 2 "Evening Tide" at position 1\nhint: name it id:1 for "First Light", or 1-1 for "Evening Tide"\n',
    );
    expect((await json(['track', 'edit', '1', '1-1', '--title', 'Evening Tide (Live)'])).id).toBe(2);
    const printed = await cli.run(['track', 'edit', '1', '1-1', '--title', 'Evening Tide'], { tty: true });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stderr).toMatch(/Changed track 2 \(position 1\) of release 1/);
    expect(printed.stdout).toMatch(/Evening Tide/);
  });

  it('names the flag or argument at fault, and changes nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['track', 'edit', '1', '9', '--title', 'X'], /^error: track: release 1 has no track 9 \(it has 2 tracks\)\n/],
      [['track', 'edit', '1', 'first', '--title', 'X'], /^error: track: expected a position \(3, or 2-3 for disc 2\) or an id \(17 or id:17\), got "first"\n/],
      [['track', 'edit', '1', 'id:1'], /^error: nothing to change: give at least one of --title/],
      [['track', 'edit', '1', 'id:1', '--title', ' '], /^error: --title: a track needs a title/],
      [['track', 'edit', '1', 'id:1', '--isrc', 'GB-NLR-26'], /^error: --isrc: isrc_invalid: the ISRC GB-NLR-26 is invalid: .*; nothing was changed\n/],
      [['track', 'edit', '1', 'id:1', '--explicit', 'maybe'], /^error: --explicit: expected one of explicit, not_explicit, clean, got "maybe"\n/],
      [['track', 'edit', '1', 'id:1', '--audio-language', 'english'], /^error: --audio-language: expected a two-letter ISO 639-1 code/],
      [['track', 'edit', '1', 'id:1', '--audio-language', 'qq'], /^error: --audio-language: /],
      [['track', 'edit', '1', 'id:1', '--preview-start', '1:30'], /^error: --preview-start: expected a whole number from 0 to 3600, got "1:30"\n/],
    ];
    const list = await json(['track', 'list', '1']);
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(await json(['track', 'list', '1'])).toEqual(list);
    expect((await run(['track', 'edit', '99', '1', '--title', 'X'])).code).toBe(5);
  });
});
