// Lossy audio in a lossless container: an MP3 or AAC decoded back to WAV/AIFF/FLAC keeps the
// encoder's low-pass, a wall above which the spectrum is empty (MP3 at 128 kbit/s cuts near 16 kHz,
// AAC and higher bitrates at 17-20 kHz) while the octave below it is dense. Cheap by design: one
// short FFT on the first frames of each block the quality pass reads (1 frame in 8), averaged.

/** FFT length: 4096 frames (93 ms at 44.1 kHz), about 11 Hz per bin. */
const FFT_SIZE = 4096;
/** Windows quieter than this (RMS, dBFS) say nothing about the spectrum: skipped. */
const MIN_WINDOW_DBFS = -50;
/** Bands are this wide when the spectrum is searched for a wall. */
const BAND_HZ = 200;
/** The span below a candidate cut-off that must be dense (every band loud, not a few tones). */
const DENSE_SPAN_HZ = 2000;
/** The encoders' transition from pass to stop band is narrower than this. */
const TRANSITION_HZ = 600;
/** A wall: the weakest tenth of the dense span is this far above the loudest band past it. */
const MIN_DROP_DB = 30;
/** Cut-offs searched: below 10 kHz is more likely a dull mix; above 19 kHz, a converter's anti-alias filter. */
const SEARCH_HZ = { min: 10_000, max: 19_000 } as const;
/** Too little audio analysed to say anything. */
const MIN_WINDOWS = 8;

export class LowpassDetector {
  private readonly power = new Float64Array(FFT_SIZE / 2);
  private readonly re = new Float64Array(FFT_SIZE);
  private readonly im = new Float64Array(FFT_SIZE);
  private readonly window = hann(FFT_SIZE);
  private windows = 0;

  constructor(private readonly sampleRate: number) {}

  /** Feeds one block (planar channels): its first FFT_SIZE frames, mixed to mono, are analysed. */
  process(channels: Float64Array[], frames: number): void {
    if (frames < FFT_SIZE || this.sampleRate < 2 * (SEARCH_HZ.min + DENSE_SPAN_HZ)) return;
    const { re, im } = this;
    let energy = 0;
    for (let i = 0; i < FFT_SIZE; i++) {
      let v = 0;
      for (let c = 0; c < channels.length; c++) v += channels[c]![i]!;
      v /= channels.length;
      energy += v * v;
      re[i] = v * this.window[i]!;
      im[i] = 0;
    }
    if (10 * Math.log10(energy / FFT_SIZE + 1e-30) < MIN_WINDOW_DBFS) return;
    fft(re, im);
    for (let k = 0; k < FFT_SIZE / 2; k++) this.power[k]! += re[k]! * re[k]! + im[k]! * im[k]!;
    this.windows++;
  }

  /** The estimated cut-off in Hz when the audio shows an encoder's wall, else undefined. */
  cutoffHz(): number | undefined {
    if (this.windows < MIN_WINDOWS) return undefined;
    const binHz = this.sampleRate / FFT_SIZE;
    const perBand = Math.max(1, Math.round(BAND_HZ / binHz));
    const bandHz = perBand * binHz;
    const levels: number[] = [];
    for (let b = 0; (b + 1) * perBand <= this.power.length; b++) {
      let sum = 0;
      for (let k = b * perBand; k < (b + 1) * perBand; k++) sum += this.power[k]!;
      levels.push(10 * Math.log10(sum / perBand / this.windows + 1e-30));
    }
    const denseBands = Math.round(DENSE_SPAN_HZ / bandHz);
    const gapBands = Math.ceil(TRANSITION_HZ / bandHz);
    const last = Math.min(Math.floor(SEARCH_HZ.max / bandHz), levels.length - gapBands - 2);
    // From the top down: the highest wall is the encoder's (a second one below would be the music's).
    for (let c = last; c * bandHz >= SEARCH_HZ.min; c--) {
      const dense = percentile(levels.slice(c - denseBands, c), 0.1);
      const above = Math.max(...levels.slice(c + gapBands));
      if (dense - above < MIN_DROP_DB) continue;
      // The cut-off: where the level crosses halfway (in dB) between the dense span and the floor.
      // Everything past the gap is below it, so the highest band above it is the last one passed.
      const half = (dense + above) / 2;
      let edge = c + gapBands - 1;
      while (levels[edge]! <= half) edge--;
      return (edge + 1) * bandHz;
    }
    return undefined;
  }
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}

function hann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

/** In-place radix-2 FFT of FFT_SIZE points, with its bit-reversal and twiddles computed once. */
const fft = (() => {
  const n = FFT_SIZE;
  const reversed = new Uint32Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    reversed[i] = j;
  }
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cos[k] = Math.cos((-2 * Math.PI * k) / n);
    sin[k] = Math.sin((-2 * Math.PI * k) / n);
  }
  return (re: Float64Array, im: Float64Array): void => {
    for (let i = 1; i < n; i++) {
      const j = reversed[i]!;
      if (i < j) {
        const r = re[i]!;
        re[i] = re[j]!;
        re[j] = r;
        const m = im[i]!;
        im[i] = im[j]!;
        im[j] = m;
      }
    }
    for (let len = 2; len <= n; len <<= 1) {
      const half = len >> 1;
      const step = n / len;
      for (let start = 0; start < n; start += len) {
        for (let k = 0; k < half; k++) {
          const a = start + k;
          const b = a + half;
          const cr = cos[k * step]!;
          const ci = sin[k * step]!;
          const tr = re[b]! * cr - im[b]! * ci;
          const ti = re[b]! * ci + im[b]! * cr;
          re[b] = re[a]! - tr;
          im[b] = im[a]! - ti;
          re[a] = re[a]! + tr;
          im[a] = im[a]! + ti;
        }
      }
    }
  };
})();
