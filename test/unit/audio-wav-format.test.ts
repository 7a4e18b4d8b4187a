// A WAV's sample encoding read from its fmt chunk, on generated headers: legacy and extensible
// PCM pass like each other; every other encoding is refused in words, never by its number.
import { describe, expect, test } from 'vitest';
import { audioFileProblems, formatInWords, type ProbedAudio } from '../../src/audio/rules.js';
import { parseWavFormatChunk } from '../../src/audio/wav-format.js';
import { makeWav, type WavOptions } from '../helpers/audio.js';

/** The fmt chunk's body of a generated WAV (it starts at byte 20; its size is at byte 16). */
const fmtOf = (o: WavOptions) => {
  const wav = makeWav({ seconds: 0.01, ...o });
  return wav.subarray(20, 20 + wav.readUInt32LE(16));
};
const facts = (o: WavOptions): ProbedAudio => {
  const enc = parseWavFormatChunk(fmtOf(o))!;
  return {
    container: 'WAVE',
    codec: undefined,
    wavEncoding: enc,
    sampleRate: o.sampleRate ?? 44_100,
    channels: 2,
    bitsPerSample: enc.bitsPerSample,
    durationSeconds: 31,
    fileSize: 100 * 1024 ** 2,
  };
};

describe('WAV fmt chunk', () => {
  test.each([
    [{ bitDepth: 16 }, 'PCM'],
    [{ bitDepth: 24 }, 'PCM'],
    [{ bitDepth: 16, extensible: true }, 'PCM (extensible)'],
    [{ bitDepth: 24, extensible: true }, 'PCM (extensible)'],
    [{ bitDepth: 24, extensible: true, sampleRate: 96_000 }, 'PCM (extensible)'],
  ] as const)('%o is PCM and accepted', (o, name) => {
    const enc = parseWavFormatChunk(fmtOf(o))!;
    expect(enc).toMatchObject({ pcm: true, name, bitsPerSample: o.bitDepth });
    expect(audioFileProblems(facts(o))).toEqual([]);
    expect(formatInWords(facts(o))).toBe(`WAV, ${name}`);
  });

  test.each([
    [{ encoding: 'float', bitDepth: 32 }, 'IEEE float'],
    [{ encoding: 'float', bitDepth: 32, extensible: true }, 'extensible with a non-PCM sub-format (IEEE float)'],
    [{ encoding: 'alaw', bitDepth: 16 }, 'A-law'],
    [{ encoding: 'mulaw', bitDepth: 16 }, 'µ-law'],
  ] as const)('%o is refused as %s', (o, name) => {
    const enc = parseWavFormatChunk(fmtOf(o))!;
    expect(enc).toMatchObject({ pcm: false, name });
    const first = audioFileProblems(facts(o))[0]!;
    expect(first).toEqual({ code: 'audio_format_not_accepted', message: `the WAV file's audio is ${name}; only PCM WAV is accepted` });
    expect(first.message).not.toMatch(/\d{3,}/);
  });

  test('MP3 inside a WAV is one error, naming it so, whatever bit depth its header states', () => {
    for (const bitDepth of [0, 16] as const) {
      const o = { encoding: 'mp3', bitDepth } as const;
      expect(parseWavFormatChunk(fmtOf(o))).toMatchObject({ pcm: false, name: 'MP3 in a WAV container', compressed: 'MP3' });
      expect(audioFileProblems(facts(o))).toEqual([
        {
          code: 'audio_format_not_accepted',
          message: 'the file is MP3 audio inside a WAV file; only lossless audio is accepted: export the master as PCM WAV, FLAC or AIFF',
        },
      ]);
    }
  });

  test('an unknown tag or sub-format GUID is named in words, not by number', () => {
    const body = Buffer.from(fmtOf({ bitDepth: 16 }));
    body.writeUInt16LE(0x1234, 0);
    expect(parseWavFormatChunk(body)).toMatchObject({ pcm: false, name: 'an encoding we do not know' });
    const ext = Buffer.from(fmtOf({ bitDepth: 24, extensible: true }));
    ext[30] = 0x42; // break the GUID's fixed tail
    expect(parseWavFormatChunk(ext)).toMatchObject({ pcm: false, name: 'extensible with a non-PCM sub-format (an encoding we do not know)' });
    expect(parseWavFormatChunk(body.subarray(0, 10))).toBeUndefined();
  });
});
