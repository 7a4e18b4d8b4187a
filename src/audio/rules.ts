// The delivery rules for audio, in one place: which files an upload accepts (probe.ts reads the
// facts, this decides) and what a track's file must be at submit (src/rules/submit-checks.ts).
// Pure (no database, no HTTP, no file system): given what a probe read, it returns the problems,
// so the same rules run in the service and, offline, in the CLI (`track check`, before uploads).
import type { ErrorCode } from '../contract/errors.js';

export type AudioFormat = 'wav' | 'flac' | 'aiff';

/** An accepted file, as the upload records it. */
export interface AudioInfo {
  format: AudioFormat;
  sample_rate: number;
  bit_depth: number;
  channels: number;
  duration_ms: number;
}

export const ACCEPTED_FORMATS: readonly AudioFormat[] = ['wav', 'flac', 'aiff'];
export const REQUIRED_CHANNELS = 2;
export const ACCEPTED_SAMPLE_RATES = [44_100, 48_000, 88_200, 96_000, 192_000] as const;
export const ACCEPTED_BIT_DEPTHS = [16, 24] as const;
export const MIN_DURATION_MS = 30_000;
/** The largest file an upload may declare (the contract's upload-url body says it too: at most 2 GiB). */
export const MAX_AUDIO_FILE_BYTES = 2 * 1024 ** 3;

const MIN_SAMPLE_RATE = Math.min(...ACCEPTED_SAMPLE_RATES);
const MIN_BIT_DEPTH = Math.min(...ACCEPTED_BIT_DEPTHS);

/** What a probe read from a file (never trusted: it comes from the file's own header). */
export interface ProbedAudio {
  /** The container as the prober names it ("WAVE", "FLAC", "AIFF-C"…); undefined when unknown. */
  container: string | undefined;
  codec: string | undefined;
  /** For WAV: the sample encoding as our own reading of the fmt chunk gives it (wav-format.ts). */
  wavEncoding?: { pcm: boolean; name: string; compressed?: string } | undefined;
  sampleRate: number | undefined;
  channels: number | undefined;
  bitsPerSample: number | undefined;
  durationSeconds: number | undefined;
  /** Bytes in the file. */
  fileSize: number;
}

export type AudioRefusalCode = Extract<ErrorCode, `audio_${string}` | 'payload_too_large'>;

export interface AudioProblem {
  code: AudioRefusalCode;
  message: string;
}

/** "a, b or c" */
const orList = (items: readonly (string | number)[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

const FORMAT_NAMES = orList(ACCEPTED_FORMATS.map((f) => f.toUpperCase()));

/** The refusal for a file no prober could read at all. */
export const UNREADABLE_AUDIO: AudioProblem = {
  code: 'audio_unrecognized',
  message: `the file is not audio in any format we can read; upload ${FORMAT_NAMES}`,
};

/**
 * Containers we recognise by their first bytes but do not take, in words and with what to do
 * instead: a general parser would misread them (an RF64 file came out as "MPEG") or not at all.
 */
export const UNSUPPORTED_CONTAINERS = {
  RF64: { words: 'RF64 (WAV over 4 GiB)', advice: 'export as FLAC or split it' },
  BW64: { words: 'BW64 (broadcast WAV over 4 GiB)', advice: 'export as FLAC or split it' },
  W64: { words: 'Sony Wave64', advice: 'export as WAV (PCM) or FLAC' },
  CAF: { words: 'Apple Core Audio Format (CAF)', advice: 'export as WAV (PCM), AIFF or FLAC' },
  RIFX: { words: 'big-endian WAV (RIFX)', advice: 'export as WAV (PCM) or FLAC' },
} as const satisfies Record<string, { words: string; advice: string }>;

export type UnsupportedContainer = keyof typeof UNSUPPORTED_CONTAINERS;

const unsupported = (container: string | undefined) =>
  container !== undefined && Object.hasOwn(UNSUPPORTED_CONTAINERS, container) ? UNSUPPORTED_CONTAINERS[container as UnsupportedContainer] : undefined;

export function formatOf(container: string | undefined): AudioFormat | undefined {
  const c = (container ?? '').toUpperCase();
  if (c === 'WAVE' || c === 'WAV') return 'wav';
  if (c === 'FLAC') return 'flac';
  if (c === 'AIFF' || c === 'AIFF-C') return 'aiff';
  return undefined;
}

/** The file's format in words: "WAV, PCM", "WAV, IEEE float", "FLAC", "MPEG (MPEG 1 Layer 3)". */
export function formatInWords(p: Pick<ProbedAudio, 'container' | 'codec' | 'wavEncoding'>): string {
  const format = formatOf(p.container);
  if (format === 'wav') return `WAV, ${p.wavEncoding?.name ?? 'encoding not read'}`;
  if (format) return format.toUpperCase();
  if (!p.container) return 'not audio we can read';
  const known = unsupported(p.container);
  if (known) return known.words;
  return `${p.container}${p.codec ? ` (${p.codec})` : ''}`;
}

/** A file larger than any upload may be, before anything is read from it. */
export function audioSizeProblem(bytes: number): AudioProblem | undefined {
  if (bytes <= MAX_AUDIO_FILE_BYTES) return undefined;
  return { code: 'payload_too_large', message: `the file is ${bytes} bytes; audio files may be at most 2 GiB` };
}

/**
 * Every rule the probed file breaks, in the order they are checked (an upload is refused with the
 * first). A file with no readable audio stream gets that one problem: nothing else can be judged.
 */
export function audioFileProblems(p: ProbedAudio): AudioProblem[] {
  const format = formatOf(p.container);
  if (!format) {
    const known = unsupported(p.container);
    if (known) return [{ code: 'audio_format_not_accepted', message: `the file is ${known.words}: not supported; ${known.advice}` }];
    const what = p.container ? `${p.container}${p.codec ? ` (${p.codec})` : ''}` : 'an unknown format';
    return [
      {
        code: p.container !== undefined ? 'audio_format_not_accepted' : 'audio_unrecognized',
        message: `the file is ${what}; only lossless ${FORMAT_NAMES} is accepted`,
      },
    ];
  }
  const { sampleRate, channels, durationSeconds } = p;
  if (sampleRate === undefined || channels === undefined || durationSeconds === undefined) {
    return [{ code: 'audio_unrecognized', message: `the ${format.toUpperCase()} file has no readable audio stream` }];
  }
  const out: AudioProblem[] = [];
  // Samples that are not PCM are one cause: their bit depth (0 for MP3, 32 for float) and byte
  // count follow from the encoding, so they are not judged again as causes of their own.
  const pcm = format !== 'wav' || p.wavEncoding?.pcm === true;
  if (!pcm) {
    const compressed = p.wavEncoding?.compressed;
    const what = p.wavEncoding?.name ?? 'in an encoding we could not read';
    out.push({
      code: 'audio_format_not_accepted',
      message: compressed
        ? `the file is ${compressed} audio inside a WAV file; only lossless audio is accepted: export the master as PCM WAV, FLAC or AIFF`
        : `the WAV file's audio is ${what}; only PCM WAV is accepted`,
    });
  }
  if (channels !== REQUIRED_CHANNELS) {
    out.push({ code: 'audio_not_stereo', message: `the audio has ${channels} channel${channels === 1 ? '' : 's'}; it must be stereo (2 channels)` });
  }
  const bits = p.bitsPerSample;
  if (pcm && (bits === undefined || !(ACCEPTED_BIT_DEPTHS as readonly number[]).includes(bits))) {
    const is = bits === undefined ? "the audio's bit depth could not be read" : `the audio is ${bits} bit`;
    out.push({ code: 'audio_bit_depth_not_accepted', message: `${is}; it must be ${orList(ACCEPTED_BIT_DEPTHS)} bit` });
  }
  if (!(ACCEPTED_SAMPLE_RATES as readonly number[]).includes(sampleRate)) {
    out.push({
      code: 'audio_sample_rate_not_accepted',
      message: `the sample rate is ${sampleRate} Hz; it must be one of ${orList(ACCEPTED_SAMPLE_RATES)} Hz`,
    });
  }
  // An uncompressed file whose header promises more samples than the file holds only claims
  // to be audio (a header glued to nothing); FLAC is compressed, so only WAV and AIFF are checked.
  if (format !== 'flac' && pcm && bits !== undefined) {
    const pcmBytes = durationSeconds * sampleRate * channels * (bits / 8);
    if (pcmBytes > p.fileSize) {
      out.push({
        code: 'audio_truncated',
        message: `the ${format.toUpperCase()} header promises ${Math.round(pcmBytes)} bytes of audio but the file has ${p.fileSize} bytes`,
      });
    }
  }
  const durationMs = Math.round(durationSeconds * 1000);
  if (durationMs < MIN_DURATION_MS) {
    out.push({ code: 'audio_too_short', message: `the audio is ${(durationMs / 1000).toFixed(1)} s long; it must be at least ${MIN_DURATION_MS / 1000} s` });
  }
  return out;
}

/** The accepted file's facts, or every rule it breaks. */
export function checkAudioFile(p: ProbedAudio): { ok: true; info: AudioInfo } | { ok: false; problems: AudioProblem[] } {
  const problems = audioFileProblems(p);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    info: {
      format: formatOf(p.container)!,
      sample_rate: p.sampleRate!,
      bit_depth: p.bitsPerSample!,
      channels: p.channels!,
      duration_ms: Math.round(p.durationSeconds! * 1000),
    },
  };
}

/** The audio facts of a track's file that the submit checks look at. */
export interface TrackAudio {
  channels: number;
  sample_rate: number;
  bit_depth: number;
  duration_ms: number;
}

/** What is wrong with a ready track file at submit, worded for track number `trackNumber` (1-based). */
export function trackAudioProblems(f: TrackAudio, trackNumber: number): { code: string; message: string }[] {
  const out: { code: string; message: string }[] = [];
  if (f.channels !== REQUIRED_CHANNELS) {
    out.push({ code: 'audio_not_stereo', message: `track ${trackNumber} audio has ${f.channels} channel(s); it must be stereo` });
  }
  if (f.sample_rate < MIN_SAMPLE_RATE || f.bit_depth < MIN_BIT_DEPTH) {
    out.push({
      code: 'audio_quality_too_low',
      message: `track ${trackNumber} audio is ${f.bit_depth} bit / ${f.sample_rate} Hz; it must be at least ${MIN_BIT_DEPTH} bit / ${MIN_SAMPLE_RATE / 1000} kHz`,
    });
  }
  if (f.duration_ms < MIN_DURATION_MS) {
    out.push({
      code: 'audio_too_short',
      message: `track ${trackNumber} audio is ${(f.duration_ms / 1000).toFixed(1)} s; it must be at least ${MIN_DURATION_MS / 1000} s`,
    });
  }
  return out;
}
