// The audio delivery rules, pure: what an upload refuses (first problem wins) and what a track's
// file must be at submit, with the exact wording users see.
import { describe, expect, test } from 'vitest';
import { audioFileProblems, audioSizeProblem, checkAudioFile, trackAudioProblems, UNREADABLE_AUDIO, type ProbedAudio } from '../../src/audio/rules.js';

const good: ProbedAudio = {
  container: 'WAVE',
  codec: 'PCM',
  wavEncoding: { pcm: true, name: 'PCM' },
  sampleRate: 44_100,
  channels: 2,
  bitsPerSample: 16,
  durationSeconds: 31,
  fileSize: 31 * 44_100 * 4 + 44,
};
const first = (over: Partial<ProbedAudio>) => audioFileProblems({ ...good, ...over })[0];

describe('upload rules', () => {
  test('a stereo 16-bit 44.1 kHz PCM WAV of 31 s is accepted, with its facts', () => {
    expect(checkAudioFile(good)).toEqual({ ok: true, info: { format: 'wav', sample_rate: 44_100, bit_depth: 16, channels: 2, duration_ms: 31_000 } });
  });

  test('each refusal, worded as before', () => {
    expect(UNREADABLE_AUDIO.message).toBe('the file is not audio in any format we can read; upload WAV, FLAC or AIFF');
    expect(first({ container: 'MPEG', codec: 'MPEG 1 Layer 3' })).toEqual({
      code: 'audio_format_not_accepted',
      message: 'the file is MPEG (MPEG 1 Layer 3); only lossless WAV, FLAC or AIFF is accepted',
    });
    expect(first({ container: undefined })).toEqual({
      code: 'audio_unrecognized',
      message: 'the file is an unknown format; only lossless WAV, FLAC or AIFF is accepted',
    });
    expect(first({ sampleRate: undefined })).toEqual({ code: 'audio_unrecognized', message: 'the WAV file has no readable audio stream' });
    expect(first({ wavEncoding: { pcm: false, name: 'ADPCM' } })).toEqual({
      code: 'audio_format_not_accepted',
      message: "the WAV file's audio is ADPCM; only PCM WAV is accepted",
    });
    expect(first({ channels: 1 })).toEqual({ code: 'audio_not_stereo', message: 'the audio has 1 channel; it must be stereo (2 channels)' });
    expect(first({ bitsPerSample: 8 })).toEqual({ code: 'audio_bit_depth_not_accepted', message: 'the audio is 8 bit; it must be 16 or 24 bit' });
    expect(first({ bitsPerSample: undefined })?.message).toBe("the audio's bit depth could not be read; it must be 16 or 24 bit");
    expect(first({ sampleRate: 22_050 })).toEqual({
      code: 'audio_sample_rate_not_accepted',
      message: 'the sample rate is 22050 Hz; it must be one of 44100, 48000, 88200, 96000 or 192000 Hz',
    });
    expect(first({ fileSize: 1000 })).toEqual({
      code: 'audio_truncated',
      message: 'the WAV header promises 5468400 bytes of audio but the file has 1000 bytes',
    });
    expect(first({ durationSeconds: 10 })).toEqual({ code: 'audio_too_short', message: 'the audio is 10.0 s long; it must be at least 30 s' });
  });

  test('FLAC is compressed: its size is not held against its duration', () => {
    expect(audioFileProblems({ ...good, container: 'FLAC', codec: 'FLAC', fileSize: 1000 })).toEqual([]);
  });

  test('every problem comes back, in order', () => {
    expect(audioFileProblems({ ...good, channels: 1, durationSeconds: 10 }).map((p) => p.code)).toEqual(['audio_not_stereo', 'audio_too_short']);
  });

  test('size limit', () => {
    expect(audioSizeProblem(2 * 1024 ** 3)).toBeUndefined();
    expect(audioSizeProblem(2 * 1024 ** 3 + 1)?.code).toBe('payload_too_large');
  });
});

describe('submit rules for a track file', () => {
  test('a good file has no problems; each bad fact is named for its track', () => {
    expect(trackAudioProblems({ channels: 2, sample_rate: 48_000, bit_depth: 24, duration_ms: 30_000 }, 1)).toEqual([]);
    expect(trackAudioProblems({ channels: 1, sample_rate: 22_050, bit_depth: 8, duration_ms: 29_999 }, 3)).toEqual([
      { code: 'audio_not_stereo', message: 'track 3 audio has 1 channel(s); it must be stereo' },
      { code: 'audio_quality_too_low', message: 'track 3 audio is 8 bit / 22050 Hz; it must be at least 16 bit / 44.1 kHz' },
      { code: 'audio_too_short', message: 'track 3 audio is 30.0 s; it must be at least 30 s' },
    ]);
  });
});
