// `reldist track list|get|replace|set` against the real reference service, on the tracks the
// upload tests leave: replacing one file, setting the list from a file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli, writeWav } from './cli-harness.js';

const cli = useCli();
let work: string;

const golden = (name: string) => `../fixtures/golden/track/${name}.txt`;
const { run, json } = cli;
const audio = 'examples/first-release/audio';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-track-'));
  // Release 1 as the upload tests leave it: First Light (with an ISRC and a composer), Low Tide,
  // Evening Tide; and mono.wav, which the service refuses.
  await writeWav(join(work, '04_low_tide.wav'), { seconds: 30.5 });
  await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
  const first = [
    { id: 1, title: 'First Light', isrc: 'GBNLR2600001', contributors: [{ name: 'Nina Vale', role: 'composer' }] },
    { id: 2, title: 'Low Tide' },
  ];
  for (const [argv, stdin] of [
    [['release', 'create', '--type', 'ep', '--title', 'Harbour Lights', '--artist', 'Nina Vale', '--label', 'Northern Lights Records']],
    [['track', 'upload', '1', `${audio}/first-light.flac`, join(work, '04_low_tide.wav')]],
    [['track', 'set', '1', '--file', '-'], JSON.stringify(first)],
    [['track', 'upload', '1', `${audio}/evening-tide.flac`]],
  ] as const) {
    const r = await run([...argv], stdin === undefined ? {} : { stdin });
    expect(r.code, r.stderr).toBe(0);
  }
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('track list, get, replace, set', () => {
  it('lists and shows tracks in both modes', async () => {
    await expect(transcript(await run(['track', 'list', '1']))).toMatchFileSnapshot(golden('list.piped'));
    await expect(transcript(await run(['track', 'list', '1'], { tty: true }))).toMatchFileSnapshot(golden('list.tty'));
    await expect(transcript(await run(['track', 'get', '1', '1']))).toMatchFileSnapshot(golden('get.piped'));
    await expect(transcript(await run(['track', 'get', '1', '1'], { tty: true }))).toMatchFileSnapshot(golden('get.tty'));
    expect((await run(['track', 'get', '1', '99'])).code).toBe(5);
  });

  it('replaces the file of one track, keeping the rest of it', async () => {
    const before = await json(['track', 'get', '1', '1']);
    const r = await run(['track', 'replace', '1', '1', `${audio}/evening-tide.flac`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(r.stdout);
    expect(after).toMatchObject({ id: 1, title: 'First Light', isrc: 'GBNLR2600001', file: { filename: 'evening-tide.flac', state: 'ready' } });
    expect(after.file.sha256).not.toBe(before.file.sha256);
    const refused = await run(['track', 'replace', '1', '1', join(work, 'mono.wav')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: .*mono\.wav: the audio has 1 channel; it must be stereo .*; track 1 keeps its old file\n/);
    // A file that is not audio: exit 2, and with --json one line for the file, then the error.
    await writeFile(join(work, 'notes.txt'), 'liner notes, not audio');
    const notAudio = await run(['track', 'replace', '1', '1', join(work, 'notes.txt'), '--json']);
    expect([notAudio.code, notAudio.stdout]).toEqual([2, '']);
    expect(
      notAudio.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { file: join(work, 'notes.txt'), code: 'audio_unrecognized', message: 'the file is not audio in any format we can read; upload WAV, FLAC or AIFF' },
      { error: expect.objectContaining({ code: 'bad_input_files' }) },
    ]);
    expect((await json(['track', 'get', '1', '1'])).file.filename).toBe('evening-tide.flac');
  });

  it('refuses a list that would drop tracks unless --replace-all, naming them', async () => {
    const before = await json<any[]>(['track', 'list', '1']);
    expect(before.map((t) => t.id)).toEqual([1, 2, 3]);
    const f = join(work, 'only-first.json');
    await writeFile(f, '[{"id": 1, "title": "First Light"}]');
    const r = await run(['track', 'set', '1', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'would remove: position 2, track 2 "Low Tide"\nwould remove: position 3, track 3 "Evening Tide"\n' +
        `error: ${f} leaves out 2 existing tracks of release 1, which would remove them; nothing was changed\n` +
        'hint: list every track to keep by its "id", or add --replace-all to remove the others\n',
    );
    const json1 = await run(['track', 'set', '1', '--file', '-', '--json'], { stdin: '[{"id": 2, "title": "Low Tide"}]' });
    expect(json1.code).toBe(2);
    expect(JSON.parse(json1.stdout || json1.stderr).error.code).toBe('usage');
    expect((await json<any[]>(['track', 'list', '1'])).map((t) => t.id)).toEqual([1, 2, 3]);
    // The same list with every track kept (and one reordered) needs no flag.
    const kept = await run(['track', 'set', '1', '--file', '-'], {
      stdin: '[{"id": 1, "title": "First Light"}, {"id": 3, "title": "Evening Tide"}, {"id": 2, "title": "Low Tide"}]',
    });
    expect(kept.code, kept.stderr).toBe(0);
    expect((await json<any[]>(['track', 'list', '1'])).map((t) => [t.position, t.id])).toEqual([
      [1, 1],
      [2, 3],
      [3, 2],
    ]);
  });

  it('sets the list from a file: object or plain array, YAML or JSON', async () => {
    await writeFile(join(work, 'tracks.yaml'), 'tracks:\n  - id: 3\n    title: Evening Tide\n  - id: 1\n    title: First Light\n');
    const r = await run(['track', 'set', '1', '--file', join(work, 'tracks.yaml'), '--replace-all']);
    await expect(transcript(r)).toMatchFileSnapshot(golden('set.piped'));
    const plain = await run(['track', 'set', '1', '--file', '-', '--json', '--replace-all'], { stdin: '[{"id": 1, "title": "First Light"}]' });
    expect(JSON.parse(plain.stdout).map((t: any) => t.id)).toEqual([1]);
  });

  it('names the line and field of a bad track list, and sends nothing', async () => {
    await writeFile(join(work, 'bad.json'), '[\n  {"id": 1},\n  {"title": "X", "disc": "two", "explicit": "yes"}\n]\n');
    const r = await run(['track', 'set', '1', '--file', join(work, 'bad.json')]);
    expect(r.code).toBe(2);
    const f = join(work, 'bad.json');
    expect(r.stderr).toBe(
      `${f}:2: 0.title: required: expected text\n${f}:3: 1.disc: expected a number, got "two"\n${f}:3: 1.explicit: expected one of explicit, not_explicit, clean, got "yes"\n` +
        `error: ${f}: 3 problems\nhint: fix the fields named above and run again\n`,
    );
    const missingFlag = await run(['track', 'set', '1']);
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toMatch(/--file/);
  });
});
