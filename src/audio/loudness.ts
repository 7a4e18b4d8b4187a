// Integrated loudness as ITU-R BS.1770-4 / EBU R128 define it: K-weighting (a high shelf, then the
// RLB high-pass), mean square per 400 ms block with 75 % overlap, an absolute gate at -70 LUFS and
// a relative gate 10 LU under the ungated mean. Streamed: only one number per 100 ms is kept.

/** One second-order IIR section's coefficients (a0 normalised to 1). */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * The two K-weighting stages for any sample rate, from the analogue prototypes BS.1770's 48 kHz
 * tables were derived from (the same derivation libebur128 and ffmpeg use).
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  let f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / sampleRate);
  a0 = 1 + k / q + k * k;
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
  return [shelf, highPass];
}

/** BS.1770's channel weights: 1 for front channels, 1.41 for surrounds, 0 for a 5.1 LFE. */
export function channelWeights(channels: number): number[] {
  if (channels === 6) return [1, 1, 1, 0, 1.41, 1.41];
  return Array.from({ length: channels }, () => 1);
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const toLufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

export class LoudnessMeter {
  private readonly shelf: Biquad;
  private readonly highPass: Biquad;
  private readonly weights: number[];
  /** Per channel: x1, x2, y1, y2 of each stage (8 numbers). */
  private readonly state: Float64Array[];
  private readonly stepFrames: number;
  private stepSum = 0;
  private stepFill = 0;
  /** Weighted sum of squares of every complete 100 ms step (a block is four steps). */
  private readonly steps: number[] = [];

  constructor(sampleRate: number, channels: number) {
    [this.shelf, this.highPass] = kWeighting(sampleRate);
    this.weights = channelWeights(channels);
    this.state = Array.from({ length: channels }, () => new Float64Array(8));
    this.stepFrames = Math.round(sampleRate / 10);
  }

  process(channels: Float64Array[], frames: number): void {
    let start = 0;
    while (start < frames) {
      const n = Math.min(frames - start, this.stepFrames - this.stepFill);
      for (let c = 0; c < channels.length; c++) {
        const w = this.weights[c]!;
        if (w !== 0) this.stepSum += w * this.filterSquares(channels[c]!, start, start + n, this.state[c]!);
      }
      this.stepFill += n;
      start += n;
      if (this.stepFill === this.stepFrames) {
        this.steps.push(this.stepSum);
        this.stepSum = 0;
        this.stepFill = 0;
      }
    }
  }

  /** Runs both K-weighting stages over x[from, to) and returns the sum of the squared output. */
  private filterSquares(x: Float64Array, from: number, to: number, s: Float64Array): number {
    const a = this.shelf;
    const b = this.highPass;
    let [x1, x2, y1, y2, u1, u2, z1, z2] = s as unknown as number[];
    let sum = 0;
    for (let i = from; i < to; i++) {
      const xi = x[i]!;
      const y = a.b0 * xi + a.b1 * x1! + a.b2 * x2! - a.a1 * y1! - a.a2 * y2!;
      x2 = x1;
      x1 = xi;
      y2 = y1;
      y1 = y;
      const z = y - 2 * u1! + u2! - b.a1 * z1! - b.a2 * z2!;
      u2 = u1;
      u1 = y;
      z2 = z1;
      z1 = z;
      sum += z * z;
    }
    s.set([x1!, x2!, y1!, y2!, u1!, u2!, z1!, z2!]);
    return sum;
  }

  /** The integrated loudness in LUFS, or undefined when every block is under the absolute gate. */
  integrated(): number | undefined {
    const blockFrames = 4 * this.stepFrames;
    const blocks: number[] = [];
    for (let i = 3; i < this.steps.length; i++) {
      blocks.push((this.steps[i - 3]! + this.steps[i - 2]! + this.steps[i - 1]! + this.steps[i]!) / blockFrames);
    }
    const loud = blocks.filter((z) => z > 0 && toLufs(z) > ABSOLUTE_GATE_LUFS);
    if (loud.length === 0) return undefined;
    const relativeGate = toLufs(mean(loud)) + RELATIVE_GATE_LU;
    const gated = loud.filter((z) => toLufs(z) > relativeGate);
    return toLufs(mean(gated));
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
