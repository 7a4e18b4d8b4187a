// `reldist track upload` against the real reference service: files streamed and checked by the
// service, appended after existing tracks, refusals with their reasons.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  // Release 1, with no tracks yet.
  const r = await run(['release', 'create', '--type', 'ep', '--title', 'Harbour Lights', '--artist', 'Nina Vale', '--label', 'Northern Lights Records']);
  expect(r.code, r.stderr).toBe(0);
});

afterAll(async () => {
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
    await run(['track', 'set', '1', '--file', '-'], {
      stdin: JSON.stringify([
        { id: 1, title: 'First Light', isrc: 'GBNLR2600001', contributors: [{ name: 'Nina Vale', role: 'composer' }] },
        { id: 2, title: 'Low Tide' },
      ]),
    });
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

  it('refuses locally, with the reasons of the service, audio it would refuse (exit 2, bad input files): nothing is sent', async () => {
    await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
    await writeWav(join(work, 'short.wav'), { seconds: 2 });
    await writeFile(join(work, 'notes.wav'), 'these are notes, not audio');
    let clients = 0;
    const counting = {
      client: async () => {
        clients++;
        throw new Error('the service must not be asked');
      },
    };
    const files = [join(work, 'mono.wav'), join(work, 'short.wav'), join(work, 'notes.wav'), `${audio}/first-light.flac`];
    const r = await run(['track', 'upload', '1', ...files], { services: counting });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(clients).toBe(0);
    expect(r.stderr.split('\n').slice(0, 4)).toEqual([
      `error: ${join(work, 'mono.wav')}: the audio has 1 channel; it must be stereo (2 channels)`,
      expect.stringMatching(new RegExp(`^error: ${join(work, 'short.wav')}: .*30`)),
      `error: ${join(work, 'notes.wav')}: the file is not audio in any format we can read; upload WAV, FLAC or AIFF`,
      'error: 3 of 4 files would be refused by the service; nothing was uploaded',
    ]);
    // --json: a JSON line per bad file on stderr (file, code, message), then the one error object; no plain lines.
    const j = await run(['track', 'upload', '1', ...files, '--json'], { services: counting });
    expect([j.code, j.stdout]).toEqual([2, '']);
    const lines = j.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.slice(0, 3).map((l) => [l.file, l.code])).toEqual([
      [join(work, 'mono.wav'), 'audio_not_stereo'],
      [join(work, 'short.wav'), 'audio_too_short'],
      [join(work, 'notes.wav'), 'audio_unrecognized'],
    ]);
    expect(lines[2].message).toBe('the file is not audio in any format we can read; upload WAV, FLAC or AIFF');
    expect(lines.slice(3)).toEqual([
      { error: expect.objectContaining({ code: 'bad_input_files', message: '3 of 4 files would be refused by the service; nothing was uploaded' }) },
    ]);
    expect(clients).toBe(0);
    // And against the real service: no track added, no file stored.
    const stored = async () => (await readdir(join(cli.server.dataDir, 'uploads', 'files')).catch(() => [] as string[])).length;
    const before = await stored();
    expect((await run(['track', 'upload', '1', ...files])).code).toBe(2);
    expect(await stored()).toBe(before);
    expect((await json<any[]>(['track', 'list', '1'])).length).toBe(3);
  });

  it('uploads nothing when a named file is missing, whatever its place', async () => {
    const before = (await json<any[]>(['track', 'list', '1'])).length;
    let clients = 0;
    const counting = {
      client: async () => {
        clients++;
        throw new Error('the service must not be asked');
      },
    };
    const r = await run(['track', 'upload', '1', `${audio}/first-light.flac`, join(work, 'missing.wav')], { services: counting });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${join(work, 'missing.wav')}: no such file\n`);
    // Every file that cannot be read is named, a JSON line each with --json.
    const j = await run(['track', 'upload', '1', join(work, 'missing.wav'), `${audio}/first-light.flac`, work, '--json'], { services: counting });
    expect([j.code, j.stdout]).toEqual([2, '']);
    expect(
      j.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { file: join(work, 'missing.wav'), code: 'file_not_found', message: 'no such file' },
      { file: work, code: 'not_a_file', message: 'is a folder, expected an audio file' },
      { error: expect.objectContaining({ code: 'bad_input_files', message: '2 of 3 files cannot be read; nothing was sent' }) },
    ]);
    expect(clients).toBe(0);
    expect((await json<any[]>(['track', 'list', '1'])).length).toBe(before);
  });

  it('names a missing file and a missing release', async () => {
    const missing = await run(['track', 'upload', '1', join(work, 'nowhere.flac')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(new RegExp(`^error: ${join(work, 'nowhere.flac')}: no such file\\n`));
    const noRelease = await run(['track', 'upload', '999', `${audio}/first-light.flac`]);
    expect(noRelease.code).toBe(5);
  });

  it('piped, an upload of 16 MiB or more says how far it is on a plain line at every 10%, no carriage return', async () => {
    const created = await json(['release', 'create', '--type', 'single', '--title', 'Long Master', '--artist', 'Nina Vale', '--label', 'L']);
    // 100 s of 16-bit stereo at 44.1 kHz: 16.8 MiB.
    await writeWav(join(work, 'long_master.wav'), { seconds: 100 });
    const r = await run(['track', 'upload', String(created.id), join(work, 'long_master.wav'), `${audio}/first-light.flac`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('\r');
    const lines = r.stderr.trimEnd().split('\n');
    // One line per tenth crossed (the client reports every chunk it sends, each under a tenth);
    // the FLAC of 218 KiB, the second file, says nothing.
    expect(lines.map((l) => /^Uploading .*long_master\.wav \(file 1 of 2\): (\d+)%, [\d.]+ (KiB|MiB) of 16\.8 MiB/.exec(l)?.[1]?.slice(0, -1) || '0')).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
  });

  it("a title from the tags past the contract's bound is named by the client's own check, as before", async () => {
    // The audio check reads the title; the track-list write is parsed by the client only when a
    // value it filled in is outside the contract's plain-data bounds, and then says so as it did.
    const path = join(work, 'long-title.wav');
    await writeWav(path, { seconds: 31 });
    const wav = await readFile(path);
    const name = Buffer.from(`${'x'.repeat(250)}\0\0`, 'latin1'); // even: no padding byte
    const inam = Buffer.concat([Buffer.from('INAM'), Buffer.alloc(4), name]);
    inam.writeUInt32LE(name.length, 4);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.alloc(4), Buffer.from('INFO'), inam]);
    list.writeUInt32LE(list.length - 8, 4);
    const titled = Buffer.concat([wav, list]);
    titled.writeUInt32LE(titled.length - 8, 4);
    await writeFile(path, titled);
    const r = await run(['track', 'upload', '1', path]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid request for replaceReleaseTracks: tracks\.\d+\.title: Too big: expected string to have <=200 characters$/m);
  });
});
