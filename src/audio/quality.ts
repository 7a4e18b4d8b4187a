// The quality checks distributors run before delivery, offline and as warnings (never refusals):
// silence at either end, clipping, true peak and integrated loudness, measured by decoding the
// audio in bounded blocks (pcm-stream.ts). The thresholds are named here, with why.
import { LoudnessMeter } from './loudness.js';
import { open } from 'node:fs/promises';
import { readFlacInfo, streamFlac } from './flac-stream.js';
import { fullScale, NotDecodable, readPcmLayout, streamPcm, type PcmBlock } from './pcm-stream.js';
import { TruePeakMeter } from './true-peak.js';
import { LowpassDetector } from './lowpass.js';

/** Silence longer than this at the start or end is worth a warning. */
export const MAX_EDGE_SILENCE_SECONDS = 2;
/**
 * A sample counts as silence up to one step of 16-bit audio (-90.3 dBFS): digital silence, and the
 * same silence after dither (which turns its zeros into ±1 steps).
 */
export const SILENCE_CEILING = 2 ** -15;
/** This many consecutive full-scale samples on one channel count as one clipped run. */
export const CLIPPED_RUN_SAMPLES = 3;
/** Above this, lossy encoding and sample-rate conversion by the stores will clip (their spec: -1 dBTP). */
export const MAX_TRUE_PEAK_DBTP = -1;
/**
 * Stores normalise playback (Spotify and YouTube to about -14 LUFS, Apple to -16), so loudness is
 * no refusal; a master hotter than -9 LUFS is turned down and loses only its dynamics, and one
 * quieter than -24 (below broadcast's -23) is likely a wrong export or an unmastered mix.
 */
export const LOUDNESS_RANGE_LUFS = { min: -24, max: -9 } as const;

export type AudioWarningCode =
  | 'audio_silent'
  | 'audio_silence_at_start'
  | 'audio_silence_at_end'
  | 'audio_clipping'
  | 'audio_true_peak_over'
  | 'audio_too_loud'
  | 'audio_too_quiet'
  | 'audio_lossy_source';

export interface AudioWarning {
  code: AudioWarningCode;
  message: string;
}

export interface AudioMeasurement {
  /** Integrated loudness, LUFS; undefined when the audio is silent throughout. */
  loudnessLufs: number | undefined;
  /** True peak, dBTP; undefined when every sample is 0. */
  truePeakDbtp: number | undefined;
  leadingSilenceSeconds: number;
  trailingSilenceSeconds: number;
  /** Runs of CLIPPED_RUN_SAMPLES or more full-scale samples, counted per channel. */
  clippedRuns: number;
  /** No sample anywhere above SILENCE_CEILING. */
  silent: boolean;
  /** The container the samples were read from. */
  container: 'WAV' | 'AIFF' | 'FLAC';
  /** An encoder's low-pass wall (lowpass.ts), Hz: the audio went through MP3 or AAC. */
  lossyCutoffHz: number | undefined;
}

export type QualityResult = { measured: true; measurement: AudioMeasurement } | { measured: false; reason: string };

/** Counts digital silence at both ends and clipped runs per channel, over a stream of blocks. */
class EdgesAndClipping {
  private frame = 0;
  private firstSound = -1;
  private lastSound = -1;
  private readonly runs: Int32Array;
  clippedRuns = 0;

  constructor(
    channels: number,
    private readonly ceiling: number,
  ) {
    this.runs = new Int32Array(channels);
  }

  process(channels: Float64Array[], frames: number): void {
    const ceiling = this.ceiling;
    for (let c = 0; c < channels.length; c++) {
      const x = channels[c]!;
      let run = this.runs[c]!;
      for (let i = 0; i < frames; i++) {
        const v = x[i]!;
        // A run is one full-scale value repeated: positive runs count up, negative ones down.
        if (v >= ceiling) run = run > 0 ? run + 1 : 1;
        else if (v <= -1) run = run < 0 ? run - 1 : -1;
        else run = 0;
        if (run === CLIPPED_RUN_SAMPLES || run === -CLIPPED_RUN_SAMPLES) this.clippedRuns++;
        if (v > SILENCE_CEILING || v < -SILENCE_CEILING) {
          const f = this.frame + i;
          if (this.firstSound < 0 || f < this.firstSound) this.firstSound = f;
          if (f > this.lastSound) this.lastSound = f;
        }
      }
      this.runs[c] = run;
    }
    this.frame += frames;
  }

  /** Frames of silence before the first and after the last sound. */
  edges(): { leading: number; trailing: number; silent: boolean } {
    if (this.firstSound < 0) return { leading: this.frame, trailing: this.frame, silent: true };
    return { leading: this.firstSound, trailing: this.frame - 1 - this.lastSound, silent: false };
  }
}

/** What the meters need of a file: its shape, and its samples block by block. */
interface SampleSource {
  container: AudioMeasurement['container'];
  channels: number;
  sampleRate: number;
  /** A sample at or above this (in absolute value) is full scale. */
  fullScale: number;
  stream(onBlock: (block: PcmBlock) => void): Promise<void>;
}

async function openSamples(path: string): Promise<SampleSource> {
  const fh = await open(path, 'r');
  const magic = Buffer.alloc(4);
  try {
    await fh.read(magic, 0, 4, 0);
  } finally {
    await fh.close();
  }
  if (magic.toString('latin1') === 'fLaC') {
    const info = await readFlacInfo(path);
    return {
      container: 'FLAC',
      channels: info.channels,
      sampleRate: info.sampleRate,
      // The decoder scales by 2^(bits-1): the largest positive sample is one step below 1.
      fullScale: (2 ** (info.bitsPerSample - 1) - 1) / 2 ** (info.bitsPerSample - 1),
      stream: (onBlock) => streamFlac(path, info, onBlock),
    };
  }
  const layout = await readPcmLayout(path);
  return {
    container: magic.toString('latin1') === 'FORM' ? 'AIFF' : 'WAV',
    channels: layout.channels,
    sampleRate: layout.sampleRate,
    fullScale: fullScale(layout),
    stream: (onBlock) => streamPcm(path, layout, onBlock),
  };
}

/** Decodes the WAV, AIFF or FLAC at `path` once and measures it; other formats are not measured. */
export async function measureAudio(path: string): Promise<QualityResult> {
  try {
    const source = await openSamples(path);
    const loudness = new LoudnessMeter(source.sampleRate, source.channels);
    let truePeak: TruePeakMeter | undefined;
    const edges = new EdgesAndClipping(source.channels, source.fullScale);
    const lowpass = new LowpassDetector(source.sampleRate);
    await source.stream(({ channels, frames }) => {
      truePeak ??= new TruePeakMeter(source.channels, channels[0]!.length);
      loudness.process(channels, frames);
      truePeak.process(channels, frames);
      edges.process(channels, frames);
      lowpass.process(channels, frames);
    });
    const { leading, trailing, silent } = edges.edges();
    return {
      measured: true,
      measurement: {
        loudnessLufs: loudness.integrated(),
        truePeakDbtp: truePeak?.dbtp(),
        leadingSilenceSeconds: leading / source.sampleRate,
        trailingSilenceSeconds: trailing / source.sampleRate,
        clippedRuns: edges.clippedRuns,
        silent,
        container: source.container,
        lossyCutoffHz: lowpass.cutoffHz(),
      },
    };
  } catch (err) {
    if (err instanceof NotDecodable) return { measured: false, reason: err.message };
    throw err;
  }
}

/** To the nearest half kHz: the estimate is no finer than that. */
const kilohertz = (hz: number) => `${Math.round(hz / 500) / 2} kHz`;

/** One decimal, as the figures are shown. */
export const oneDecimal = (x: number) => x.toFixed(1);

/** The warnings a measurement earns, each with its figure and what to do. */
export function qualityWarnings(m: AudioMeasurement): AudioWarning[] {
  const out: AudioWarning[] = [];
  const peak = m.truePeakDbtp;
  if (m.silent || peak === undefined) {
    out.push({ code: 'audio_silent', message: 'the audio is silent throughout (nothing above -90 dBFS); export the master again' });
    return out;
  }
  if (m.leadingSilenceSeconds > MAX_EDGE_SILENCE_SECONDS) {
    out.push({
      code: 'audio_silence_at_start',
      message: `${oneDecimal(m.leadingSilenceSeconds)} s of silence at the start (more than ${MAX_EDGE_SILENCE_SECONDS} s); trim it unless it is meant`,
    });
  }
  if (m.trailingSilenceSeconds > MAX_EDGE_SILENCE_SECONDS) {
    out.push({
      code: 'audio_silence_at_end',
      message: `${oneDecimal(m.trailingSilenceSeconds)} s of silence at the end (more than ${MAX_EDGE_SILENCE_SECONDS} s); trim it unless it is meant`,
    });
  }
  if (m.clippedRuns > 0) {
    out.push({
      code: 'audio_clipping',
      message: `${m.clippedRuns} clipped run${m.clippedRuns === 1 ? '' : 's'} (${CLIPPED_RUN_SAMPLES} or more full-scale samples in a row); master again with a limiter below full scale`,
    });
  }
  if (peak > MAX_TRUE_PEAK_DBTP) {
    out.push({
      code: 'audio_true_peak_over',
      message: `true peak ${oneDecimal(peak)} dBTP is above ${MAX_TRUE_PEAK_DBTP} dBTP; lossy encoding will clip: limit the master's true peak to ${MAX_TRUE_PEAK_DBTP} dBTP`,
    });
  }
  if (m.lossyCutoffHz !== undefined) {
    out.push({
      code: 'audio_lossy_source',
      message: `looks like lossy audio (MP3/AAC-like cut-off at ${kilohertz(m.lossyCutoffHz)}) in ${m.container === 'AIFF' ? 'an' : 'a'} ${m.container} container; deliver the lossless master instead`,
    });
  }
  if (m.loudnessLufs !== undefined && m.loudnessLufs > LOUDNESS_RANGE_LUFS.max) {
    out.push({
      code: 'audio_too_loud',
      message: `loudness ${oneDecimal(m.loudnessLufs)} LUFS is above ${LOUDNESS_RANGE_LUFS.max} LUFS; stores turn it down, so it only loses dynamics: consider a less limited master`,
    });
  }
  if (m.loudnessLufs === undefined || m.loudnessLufs < LOUDNESS_RANGE_LUFS.min) {
    const figure = m.loudnessLufs === undefined ? 'under -70' : oneDecimal(m.loudnessLufs);
    out.push({
      code: 'audio_too_quiet',
      message: `loudness ${figure} LUFS is below ${LOUDNESS_RANGE_LUFS.min} LUFS; check that this is the mastered export`,
    });
  }
  return out;
}
