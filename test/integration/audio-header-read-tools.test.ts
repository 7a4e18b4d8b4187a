// The header readers (src/audio/riff-wave.ts, iff-aiff.ts) against files the tools labels really
// use write: sox and ffmpeg, in the encodings and rates a delivery meets. On each, the probe must
// give what music-metadata gives, and the plain files must take the short way (or the reader is
// only ever tested on our own generated layouts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { probeAudioFile, probeWithMusicMetadata } from '../../src/audio/probe.js';
import { readPlainAiff } from '../../src/audio/iff-aiff.js';
import { readPlainWave } from '../../src/audio/riff-wave.js';

const has = (tool: string, versionFlag: string) => spawnSync(tool, [versionFlag], { stdio: 'ignore' }).status === 0;
const tools = has('sox', '--version') && has('ffmpeg', '-version');
const dir = mkdtempSync(join(tmpdir(), 'reldist-header-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

const sox = (name: string, rate: number, bits: number, channels: number, encoding?: string) =>
  execFileSync(
    'sox',
    ['-D', '-r', String(rate), '-c', String(channels), '-n', ...(encoding ? ['-e', encoding] : []), '-b', String(bits), at(name), 'synth', '3', 'sine', '440'],
    { stdio: 'ignore' },
  );
const ffmpeg = (name: string, rate: number, codec: string, channels: number, ...extra: string[]) =>
  execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=${rate}:duration=3`,
      '-ac',
      String(channels),
      '-c:a',
      codec,
      ...extra,
      '-y',
      at(name),
    ],
    { stdio: 'ignore' },
  );

/** [file, how it is made, whether it is plain (read from its headers)] */
const files: [string, () => void, boolean][] = [
  ['sox-16-44k1-stereo.wav', () => sox('sox-16-44k1-stereo.wav', 44_100, 16, 2), true],
  ['sox-24-48k-stereo.wav', () => sox('sox-24-48k-stereo.wav', 48_000, 24, 2), true],
  ['sox-24-96k-stereo.wav', () => sox('sox-24-96k-stereo.wav', 96_000, 24, 2), true],
  ['sox-16-44k1-mono.wav', () => sox('sox-16-44k1-mono.wav', 44_100, 16, 1), true],
  ['sox-32-float-48k.wav', () => sox('sox-32-float-48k.wav', 48_000, 32, 2, 'floating-point'), true],
  ['sox-8-22k-mono.wav', () => sox('sox-8-22k-mono.wav', 22_050, 8, 1, 'unsigned-integer'), true],
  ['sox-16-44k1-6ch.wav', () => sox('sox-16-44k1-6ch.wav', 44_100, 16, 6), true],
  ['sox-16-44k1.aiff', () => sox('sox-16-44k1.aiff', 44_100, 16, 2), true],
  ['sox-24-96k.aiff', () => sox('sox-24-96k.aiff', 96_000, 24, 2), true],
  ['ffmpeg-16-44k1.wav', () => ffmpeg('ffmpeg-16-44k1.wav', 44_100, 'pcm_s16le', 2), true],
  ['ffmpeg-24-48k.wav', () => ffmpeg('ffmpeg-24-48k.wav', 48_000, 'pcm_s24le', 2), true],
  ['ffmpeg-24-192k.wav', () => ffmpeg('ffmpeg-24-192k.wav', 192_000, 'pcm_s24le', 2), true],
  ['ffmpeg-float-48k.wav', () => ffmpeg('ffmpeg-float-48k.wav', 48_000, 'pcm_f32le', 2), true],
  ['ffmpeg-16-44k1-bitexact.wav', () => ffmpeg('ffmpeg-16-44k1-bitexact.wav', 44_100, 'pcm_s16le', 2, '-fflags', '+bitexact'), true],
  ['ffmpeg-titled.wav', () => ffmpeg('ffmpeg-titled.wav', 44_100, 'pcm_s16le', 2, '-metadata', 'title=Harbour Lights'), false],
  ['ffmpeg-16-44k1.aiff', () => ffmpeg('ffmpeg-16-44k1.aiff', 44_100, 'pcm_s16be', 2), true],
  ['ffmpeg-24-48k.aiff', () => ffmpeg('ffmpeg-24-48k.aiff', 48_000, 'pcm_s24be', 2), true],
  ['ffmpeg-titled.aiff', () => ffmpeg('ffmpeg-titled.aiff', 44_100, 'pcm_s16be', 2, '-metadata', 'title=Harbour Lights', '-write_id3v2', '1'), false],
];

describe.skipIf(!tools)('the header readers on files sox and ffmpeg write (skipped: sox or ffmpeg is not installed)', () => {
  test.each(files)('%s: the facts music-metadata reads', async (name, make, plain) => {
    make();
    const path = at(name);
    const size = statSync(path).size;
    const fh = await open(path, 'r');
    const read = await (async () => (await readPlainWave(fh, size)) ?? (await readPlainAiff(fh, size)))().finally(() => fh.close());
    expect(await probeAudioFile(path, size)).toEqual(await probeWithMusicMetadata(path, size));
    expect(read !== undefined, 'read from the headers alone').toBe(plain);
  });
});
