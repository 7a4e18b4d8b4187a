// `reldist track …` against the real reference service: uploads (streamed, checked by the
// service), attaching after existing tracks, replacing one file, setting the list from a file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir, runCli, transcript, writeWav, type RunResult } from './cli-harness.js';

let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;

const golden = (name: string) => `../fixtures/golden/track/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; stdin?: string } = {}): Promise<RunResult> =>
  runCli(argv, { url: server.url, token: server.tokens.label, configDir: config.dir, ...o });
const json = async <T = any>(argv: string[]): Promise<T> => {
  const r = await run([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};
const audio = 'examples/first-release/audio';

beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-track-'));
  // Release 1, with no tracks yet.
  const r = await run(['release', 'create', '--type', 'ep', '--title', 'Harbour Lights', '--artist', 'Nina Vale', '--label', 'Northern Lights Records']);
  expect(r.code, r.stderr).toBe(0);
});

afterAll(async () => {
  await server?.close();
  await config?.cleanup();
  await rm(work, { recursive: true, force: true });
});

describe('track upload', () => {
  it('uploads files and adds them as tracks titled from their tags or names (piped)', async () => {
    // No tags in a WAV we write ourselves: the title comes from the file name.
    await writeWav(join(work, '04_low_tide.wav'), { seconds: 30.5 });
    const r = await run(['track', 'upload', '1', `${audio}/first-light.flac`, join(work, '04_low_tide.wav')]);
    await expect(transcript(r)).toMatchFileSnapshot(golden('upload.piped'));
    expect(r.code).toBe(0);
  });

  it('appends after existing tracks and keeps them (terminal, with progress)', async () => {
    await run(['track', 'set', '1', '--file', '-'], { stdin: JSON.stringify([{ id: 1, title: 'First Light', isrc: 'GBNLR2600001', contributors: [{ name: 'Nina Vale', role: 'composer' }] }, { id: 2, title: 'Low Tide' }]) });
    const r = await run(['track', 'upload', '1', `${audio}/evening-tide.flac`], { tty: true });
    await expect(transcript(r)).toMatchFileSnapshot(golden('upload.tty'));
    const tracks = await json<any[]>(['track', 'list', '1']);
    expect(tracks.map((t) => [t.position, t.title, t.isrc])).toEqual([
      [1, 'First Light', 'GBNLR2600001'],
      [2, 'Low Tide', null],
      [3, 'Evening Tide', null],
    ]);
    expect(tracks[0].contributors).toEqual([{ name: 'Nina Vale', role: 'composer' }]);
  });

  it('reports audio the service refuses, with its reason, and adds nothing', async () => {
    await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
    await writeWav(join(work, 'short.wav'), { seconds: 2 });
    await writeFile(join(work, 'notes.wav'), 'these are notes, not audio');
    const r = await run(['track', 'upload', '1', join(work, 'mono.wav'), join(work, 'short.wav'), join(work, 'notes.wav'), `${audio}/first-light.flac`]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const lines = r.stderr.replace(/ \(request req_[\w-]+\)/g, '').split('\n');
    expect(lines.slice(0, 4)).toEqual([
      `error: ${join(work, 'mono.wav')}: the audio has 1 channel; it must be stereo (2 channels)`,
      expect.stringMatching(new RegExp(`^error: ${join(work, 'short.wav')}: .*30`)),
      `error: ${join(work, 'notes.wav')}: the file is not audio in any format we can read; upload WAV, FLAC or AIFF`,
      'error: 3 of 4 files were refused; no track was added (the 1 accepted upload is not attached)',
    ]);
    expect((await json<any[]>(['track', 'list', '1'])).length).toBe(3);
  });

  it('names a missing file and a missing release', async () => {
    const missing = await run(['track', 'upload', '1', join(work, 'nowhere.flac')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(new RegExp(`^error: ${join(work, 'nowhere.flac')}: no such file\\n`));
    const noRelease = await run(['track', 'upload', '999', `${audio}/first-light.flac`]);
    expect(noRelease.code).toBe(5);
  });
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
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/the audio has 1 channel; it must be stereo .*; track 1 keeps its old file\n/);
    expect((await json(['track', 'get', '1', '1'])).file.filename).toBe('evening-tide.flac');
  });

  it('sets the list from a file: object or plain array, YAML or JSON', async () => {
    await writeFile(join(work, 'tracks.yaml'), 'tracks:\n  - id: 3\n    title: Evening Tide\n  - id: 1\n    title: First Light\n');
    const r = await run(['track', 'set', '1', '--file', join(work, 'tracks.yaml')]);
    await expect(transcript(r)).toMatchFileSnapshot(golden('set.piped'));
    const plain = await run(['track', 'set', '1', '--file', '-', '--json'], { stdin: '[{"id": 1, "title": "First Light"}]' });
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
