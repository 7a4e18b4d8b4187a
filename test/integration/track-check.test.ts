// `reldist track check`: the service's audio rules, offline. Generated headers run everywhere;
// real files written by sox and ffmpeg (24-bit and >48 kHz WAVs are WAVE_FORMAT_EXTENSIBLE) run
// where those tools are installed (.ci/run installs them).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/cli/context.js';
import { makeMp3Like, makeWav } from '../helpers/audio.js';
import { runCli, type RunResult } from './cli-harness.js';

let work: string;
let calls = 0;
// No service runs in this file: any attempt to reach one (or start the sandbox) is counted.
const offline: Partial<Services> = {
  client: async () => {
    calls++;
    throw new Error('track check must not reach the service');
  },
  session: async () => {
    calls++;
    throw new Error('track check must not resolve a session');
  },
};
const run = (argv: string[]): Promise<RunResult> => runCli(argv, { url: 'http://127.0.0.1:9', token: 'unused', configDir: work, services: offline });
const at = (name: string) => join(work, name);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-check-'));
  await writeFile(at('ext24.wav'), makeWav({ seconds: 31, sampleRate: 48_000, bitDepth: 24, extensible: true }));
  await writeFile(at('pcm16.wav'), makeWav({ seconds: 31 }));
  await writeFile(at('float.wav'), makeWav({ seconds: 31, encoding: 'float', bitDepth: 32 }));
  await writeFile(at('extfloat.wav'), makeWav({ seconds: 31, encoding: 'float', bitDepth: 32, extensible: true }));
  await writeFile(at('mp3inwav.wav'), makeWav({ seconds: 31, encoding: 'mp3' }));
  await writeFile(at('mono.wav'), makeWav({ seconds: 10, channels: 1 }));
  await writeFile(at('song.wav'), makeMp3Like());
});
afterAll(async () => {
  expect(calls).toBe(0);
  await rm(work, { recursive: true, force: true });
});

describe('track check', () => {
  // The generated WAVs hold a faint click train: silent to the 24-bit file's ear, very quiet in 16 bit.
  it("prints each file's format in words, figures and quality warnings; exit 0 when every file would be accepted", async () => {
    const r = await run(['track', 'check', at('ext24.wav'), at('pcm16.wav')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        `File\t${at('ext24.wav')}`,
        'Format\tWAV, PCM (extensible)',
        'Channels\t2',
        'Sample rate\t48000 Hz',
        'Bit depth\t24 bit',
        'Duration\t31.0 s',
        'Size\t8.5 MiB',
        'Loudness\tbelow -70 LUFS',
        'True peak\t-90.9 dBTP',
        'Result\taccepted',
        'Warning\tthe audio is silent throughout (nothing above -90 dBFS); export the master again',
        '',
        `File\t${at('pcm16.wav')}`,
        'Format\tWAV, PCM',
        'Channels\t2',
        'Sample rate\t44100 Hz',
        'Bit depth\t16 bit',
        'Duration\t31.0 s',
        'Size\t5.2 MiB',
        'Loudness\t-69.0 LUFS',
        'True peak\t-42.7 dBTP',
        'Result\taccepted',
        'Warning\tloudness -69.0 LUFS is below -24 LUFS; check that this is the mastered export',
        '',
      ].join('\n'),
    );
  });

  it('names every problem in words and exits 3 when any file would be refused', async () => {
    const r = await run(['track', 'check', at('float.wav'), at('mono.wav'), at('pcm16.wav')]);
    expect(r.code).toBe(3);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('Error\t'));
    // One error per cause: a float WAV's 32 bits follow from its encoding, not a second cause.
    expect(errors).toEqual([
      "Error\tthe WAV file's audio is IEEE float; only PCM WAV is accepted",
      'Error\tthe audio has 1 channel; it must be stereo (2 channels)',
      'Error\tthe audio is 10.0 s long; it must be at least 30 s',
    ]);
    expect(r.stderr).toBe('error: 2 of 3 files would be refused by the service\n');
  });

  it('--json: one array, an object per file with its format, figures, errors and warnings', async () => {
    const r = await run(['track', 'check', at('extfloat.wav'), at('mp3inwav.wav'), at('song.wav'), at('ext24.wav'), '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as any[];
    expect(out.map((f) => [f.format, f.accepted, f.errors[0]?.code ?? null])).toEqual([
      ['WAV, extensible with a non-PCM sub-format (IEEE float)', false, 'audio_format_not_accepted'],
      ['WAV, MP3 in a WAV container', false, 'audio_format_not_accepted'],
      ['MPEG (MPEG 1 Layer 3)', false, 'audio_format_not_accepted'],
      ['WAV, PCM (extensible)', true, null],
    ]);
    expect(out[3]).toEqual({
      file: at('ext24.wav'),
      format: 'WAV, PCM (extensible)',
      channels: 2,
      sample_rate: 48_000,
      bit_depth: 24,
      duration_seconds: 31,
      size_bytes: 31 * 48_000 * 6 + 68,
      accepted: true,
      loudness_lufs: null,
      true_peak_dbtp: -90.9,
      not_measured: null,
      errors: [],
      warnings: [{ code: 'audio_silent', message: 'the audio is silent throughout (nothing above -90 dBFS); export the master again' }],
    });
    expect(out[0]).toMatchObject({
      loudness_lufs: null,
      true_peak_dbtp: null,
      not_measured: "the WAV file's audio is extensible with a non-PCM sub-format (IEEE float), not PCM",
    });
    expect(out[2]).toMatchObject({ loudness_lufs: null, not_measured: null, warnings: [] });
    for (const f of out) for (const e of f.errors) expect(e.message).not.toMatch(/\(\d+\)|65534/);
  });

  it('a missing file is a usage error (exit 2) before any file is checked', async () => {
    const r = await run(['track', 'check', at('pcm16.wav'), at('missing.wav')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${at('missing.wav')}: no such file\n`);
  });
});

const has = (tool: string, versionFlag: string) => {
  try {
    execFileSync(tool, [versionFlag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!has('sox', '--version'))('track check on WAVs written by sox (skipped: sox is not installed)', () => {
  it('24 bit at 96 kHz (extensible) and 16 bit at 44.1 kHz are accepted; 32-bit float is refused in words', async () => {
    const sox = (name: string, ...args: string[]) => execFileSync('sox', ['-n', ...args, at(name), 'synth', '31', 'sine', '440']);
    sox('sox24.wav', '-r', '96000', '-c', '2', '-b', '24');
    sox('sox16.wav', '-r', '44100', '-c', '2', '-b', '16');
    sox('soxfloat.wav', '-r', '44100', '-c', '2', '-e', 'floating-point', '-b', '32');
    const out = JSON.parse((await run(['track', 'check', at('sox24.wav'), at('sox16.wav'), at('soxfloat.wav'), '--json'])).stdout) as any[];
    expect(out.map((f) => [f.format, f.sample_rate, f.bit_depth, f.accepted])).toEqual([
      ['WAV, PCM (extensible)', 96_000, 24, true],
      ['WAV, PCM', 44_100, 16, true],
      ['WAV, IEEE float', 44_100, 32, false],
    ]);
  });
});

describe.skipIf(!has('ffmpeg', '-version'))('track check on WAVs written by ffmpeg (skipped: ffmpeg is not installed)', () => {
  it('pcm_s24le (extensible) is accepted; pcm_f32le is refused as extensible float', async () => {
    const ffmpeg = (name: string, codec: string) =>
      execFileSync('ffmpeg', [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=31',
        '-ac',
        '2',
        '-ar',
        '48000',
        '-c:a',
        codec,
        at(name),
      ]);
    ffmpeg('ff24.wav', 'pcm_s24le');
    ffmpeg('fffloat.wav', 'pcm_f32le');
    const out = JSON.parse((await run(['track', 'check', at('ff24.wav'), at('fffloat.wav'), '--json'])).stdout) as any[];
    expect(out.map((f) => [f.format, f.bit_depth, f.accepted, f.errors[0]?.message ?? null])).toEqual([
      ['WAV, PCM (extensible)', 24, true, null],
      [
        'WAV, extensible with a non-PCM sub-format (IEEE float)',
        32,
        false,
        "the WAV file's audio is extensible with a non-PCM sub-format (IEEE float); only PCM WAV is accepted",
      ],
    ]);
  });
});

describe.skipIf(!has('ffmpeg', '-version') || !has('sox', '--version'))(
  'track check: containers we do not take, made by ffmpeg and sox (skipped: needs both)',
  () => {
    const ffmpeg = (...args: string[]) =>
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=31', '-ac', '2', '-ar', '44100', ...args]);
    beforeAll(() => {
      ffmpeg('-c:a', 'pcm_s16le', '-rf64', 'always', at('big.wav'));
      ffmpeg('-c:a', 'pcm_s16le', '-f', 'caf', at('apple.caf'));
      ffmpeg('-c:a', 'libmp3lame', '-f', 'wav', at('mp3.wav'));
      execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', '-t', 'w64', at('sony.w64'), 'synth', '31', 'sine', '440']);
    });

    it('RF64, Wave64 and CAF are named as such with what to do; no figure is printed empty or as null', async () => {
      const r = await run(['track', 'check', at('big.wav'), at('sony.w64'), at('apple.caf')]);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe(
        [
          `File\t${at('big.wav')}`,
          'Format\tRF64 (WAV over 4 GiB)',
          'Size\t5.2 MiB',
          'Result\trefused',
          'Error\tthe file is RF64 (WAV over 4 GiB): not supported; export as FLAC or split it',
          '',
          `File\t${at('sony.w64')}`,
          'Format\tSony Wave64',
          'Size\t5.2 MiB',
          'Result\trefused',
          'Error\tthe file is Sony Wave64: not supported; export as WAV (PCM) or FLAC',
          '',
          `File\t${at('apple.caf')}`,
          'Format\tApple Core Audio Format (CAF)',
          'Size\t5.2 MiB',
          'Result\trefused',
          'Error\tthe file is Apple Core Audio Format (CAF): not supported; export as WAV (PCM), AIFF or FLAC',
          '',
        ].join('\n'),
      );
      expect(r.stdout).not.toMatch(/null|undefined/);
      const json = JSON.parse((await run(['track', 'check', at('big.wav'), '--json'])).stdout) as any[];
      expect(json[0]).toMatchObject({ format: 'RF64 (WAV over 4 GiB)', sample_rate: null, accepted: false, errors: [{ code: 'audio_format_not_accepted' }] });
    });

    it('MP3 inside a WAV is one error for that cause (no "0 bit"), and its bit depth is left out', async () => {
      const r = await run(['track', 'check', at('mp3.wav')]);
      expect(r.code).toBe(3);
      expect(r.stdout).not.toMatch(/Bit depth|0 bit/);
      expect(r.stdout.split('\n').filter((l) => l.startsWith('Error\t'))).toEqual([
        'Error\tthe file is MP3 audio inside a WAV file; only lossless audio is accepted: export the master as PCM WAV, FLAC or AIFF',
      ]);
    });
  },
);

describe.skipIf(!has('ffmpeg', '-version') || !has('sox', '--version'))(
  'track check: lossy audio in a lossless container (skipped: needs ffmpeg and sox)',
  () => {
    const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
    /** Encodes to MP3 at 128 kbit/s and decodes back to `name` (a WAV or a FLAC). */
    const throughMp3 = (from: string, name: string) => {
      ffmpeg('-i', at(from), '-c:a', 'libmp3lame', '-b:a', '128k', at(`${name}.mp3`));
      ffmpeg('-i', at(`${name}.mp3`), at(name));
    };
    const lossyWarning = async (name: string) => {
      const out = JSON.parse((await run(['track', 'check', at(name), '--json'])).stdout) as any[];
      return out[0].warnings.find((w: { code: string }) => w.code === 'audio_lossy_source')?.message ?? null;
    };

    beforeAll(() => {
      // Broadband noise, and a music-like mix: a chord with harmonics over a quiet hiss.
      ffmpeg('-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.3:duration=8:sample_rate=44100', '-ac', '2', '-c:a', 'pcm_s16le', at('noise.wav'));
      ffmpeg(
        '-f',
        'lavfi',
        '-i',
        'aevalsrc=0.15*sin(2*PI*220*t)+0.1*sin(2*PI*277.2*t)+0.1*sin(2*PI*329.6*t)+0.03*sin(2*PI*1760*t)+0.02*sin(2*PI*5274*t):s=44100:d=8',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=color=pink:amplitude=0.05:duration=8:sample_rate=44100',
        '-filter_complex',
        '[0][1]amix=inputs=2:normalize=0',
        '-ac',
        '2',
        '-c:a',
        'pcm_s16le',
        at('music.wav'),
      );
      throughMp3('noise.wav', 'noise-mp3.wav');
      throughMp3('music.wav', 'music-mp3.wav');
      throughMp3('music.wav', 'music-mp3.flac');
      execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', at('sine1k.wav'), 'synth', '8', 'sine', '1000', 'vol', '0.5']);
      execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', at('silence.wav'), 'trim', '0', '8']);
      throughMp3('sine1k.wav', 'sine1k-mp3.wav');
    });

    it('an MP3 decoded back to WAV or FLAC is warned about, with the cut-off', async () => {
      for (const [name, container] of [
        ['noise-mp3.wav', 'WAV'],
        ['music-mp3.wav', 'WAV'],
        ['music-mp3.flac', 'FLAC'],
      ] as const) {
        expect(await lossyWarning(name), name).toMatch(
          new RegExp(
            `^looks like lossy audio \\(MP3/AAC-like cut-off at 1[5-9](\\.5)? kHz\\) in a ${container} container; deliver the lossless master instead$`,
          ),
        );
      }
    });

    it('the originals, a pure sine (even through MP3) and silence are not: no false positives on sparse spectra', async () => {
      for (const name of ['noise.wav', 'music.wav', 'sine1k.wav', 'sine1k-mp3.wav', 'silence.wav']) expect(await lossyWarning(name), name).toBeNull();
    });
  },
);
