// True peak as ITU-R BS.1770-4 Annex 2 measures it: 4x oversampling through the Recommendation's
// 48-tap interpolating FIR, split into 4 phases of 12 taps; the peak is the largest absolute value
// of the original and interpolated samples, across channels.

/** BS.1770-4 Annex 2's coefficients, one row per phase (phase 3 is phase 0 reversed, 2 is 1's). */
const PHASES: readonly (readonly number[])[] = [
  [
    0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875, 0.047607421875,
    -0.026611328125, 0.014892578125, -0.00830078125,
  ],
  [
    -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625, 0.77978515625, -0.2003173828125, 0.1015625, -0.0582275390625,
    0.0330810546875, -0.0189208984375,
  ],
];
const TAPS = 12;
const H0 = PHASES[0]!;
const H1 = PHASES[1]!;

export class TruePeakMeter {
  /** Per channel: the previous TAPS - 1 samples, then room for a block. */
  private readonly history: Float64Array[];
  private peak = 0;

  constructor(channels: number, maxFrames: number) {
    this.history = Array.from({ length: channels }, () => new Float64Array(TAPS - 1 + maxFrames));
  }

  process(channels: Float64Array[], frames: number): void {
    let peak = this.peak;
    for (let c = 0; c < channels.length; c++) {
      const h = this.history[c]!;
      h.set(channels[c]!.subarray(0, frames), TAPS - 1);
      for (let i = 0; i < frames; i++) {
        // Window h[i .. i+11], newest last; phase 3 and 2 use phases 0 and 1 reversed.
        let p0 = 0,
          p1 = 0,
          p2 = 0,
          p3 = 0;
        for (let k = 0; k < TAPS; k++) {
          const x = h[i + TAPS - 1 - k]!;
          const r = h[i + k]!;
          p0 += H0[k]! * x;
          p1 += H1[k]! * x;
          p2 += H1[k]! * r;
          p3 += H0[k]! * r;
        }
        const m = Math.max(Math.abs(p0), Math.abs(p1), Math.abs(p2), Math.abs(p3), Math.abs(h[i + TAPS - 1]!));
        if (m > peak) peak = m;
      }
      h.copyWithin(0, frames, frames + TAPS - 1);
    }
    this.peak = peak;
  }

  /** The true peak in dBTP, or undefined for digital silence. */
  dbtp(): number | undefined {
    return this.peak > 0 ? 20 * Math.log10(this.peak) : undefined;
  }
}
