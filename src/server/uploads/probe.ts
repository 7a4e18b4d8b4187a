// Reads what the audio really is (never trusting the name or the declared content type) and
// holds it against the delivery rules: WAV, FLAC or AIFF; stereo; 16 or 24 bit;
// 44.1, 48, 88.2, 96 or 192 kHz; at least 30 seconds.
import { ServiceError } from '../handler.js';
import type { ErrorCode } from '../../contract/errors.js';

export type AudioFormat = 'wav' | 'flac' | 'aiff';

export interface AudioInfo {
  format: AudioFormat;
  sample_rate: number;
  bit_depth: number;
  channels: number;
  duration_ms: number;
}

export const ACCEPTED_SAMPLE_RATES = [44_100, 48_000, 88_200, 96_000, 192_000] as const;
export const ACCEPTED_BIT_DEPTHS = [16, 24] as const;
export const MIN_DURATION_MS = 30_000;

const refuse = (code: ErrorCode, message: string) => new ServiceError(422, code, message);

function formatOf(container: string | undefined): AudioFormat | undefined {
  const c = (container ?? '').toUpperCase();
  if (c === 'WAVE' || c === 'WAV') return 'wav';
  if (c === 'FLAC') return 'flac';
  if (c === 'AIFF' || c === 'AIFF-C') return 'aiff';
  return undefined;
}

/** Probes the file at `path`; throws a 422 ServiceError naming the first rule it breaks. */
export async function probeAudio(path: string, fileSize: number): Promise<AudioInfo> {
  const { parseFile } = await import('music-metadata');
  let meta: Awaited<ReturnType<typeof parseFile>>;
  try {
    meta = await parseFile(path, { duration: true, skipCovers: true });
  } catch {
    throw refuse('audio_unrecognized', 'the file is not audio in any format we can read; upload WAV, FLAC or AIFF');
  }
  const f = meta.format;
  const format = formatOf(f.container);
  if (!format) {
    const what = f.container ? `${f.container}${f.codec ? ` (${f.codec})` : ''}` : 'an unknown format';
    const known = f.container !== undefined;
    throw refuse(
      known ? 'audio_format_not_accepted' : 'audio_unrecognized',
      `the file is ${what}; only lossless WAV, FLAC or AIFF is accepted`,
    );
  }
  if (f.sampleRate === undefined || f.numberOfChannels === undefined || f.duration === undefined) {
    throw refuse('audio_unrecognized', `the ${format.toUpperCase()} file has no readable audio stream`);
  }
  if (format === 'wav' && f.codec !== undefined && !/^PCM/i.test(f.codec)) {
    throw refuse('audio_format_not_accepted', `the WAV file holds ${f.codec} audio; only PCM WAV is accepted`);
  }
  if (f.numberOfChannels !== 2) {
    throw refuse('audio_not_stereo', `the audio has ${f.numberOfChannels} channel${f.numberOfChannels === 1 ? '' : 's'}; it must be stereo (2 channels)`);
  }
  const bits = f.bitsPerSample;
  if (bits === undefined || !(ACCEPTED_BIT_DEPTHS as readonly number[]).includes(bits)) {
    throw refuse('audio_bit_depth_not_accepted', `the audio is ${bits ?? 'of unknown'} bit; it must be 16 or 24 bit`);
  }
  if (!(ACCEPTED_SAMPLE_RATES as readonly number[]).includes(f.sampleRate)) {
    throw refuse(
      'audio_sample_rate_not_accepted',
      `the sample rate is ${f.sampleRate} Hz; it must be one of 44100, 48000, 88200, 96000 or 192000 Hz`,
    );
  }
  const durationMs = Math.round(f.duration * 1000);
  // An uncompressed file whose header promises more samples than the file holds only claims
  // to be audio (a header glued to nothing); FLAC is compressed, so only WAV and AIFF are checked.
  if (format !== 'flac') {
    const pcmBytes = f.duration * f.sampleRate * f.numberOfChannels * (bits / 8);
    if (pcmBytes > fileSize) {
      throw refuse('audio_truncated', `the ${format.toUpperCase()} header promises ${Math.round(pcmBytes)} bytes of audio but the file has ${fileSize} bytes`);
    }
  }
  if (durationMs < MIN_DURATION_MS) {
    throw refuse('audio_too_short', `the audio is ${(durationMs / 1000).toFixed(1)} s long; it must be at least 30 s`);
  }
  return { format, sample_rate: f.sampleRate, bit_depth: bits, channels: f.numberOfChannels, duration_ms: durationMs };
}
