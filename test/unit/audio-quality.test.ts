// The quality meters on signals computed here (no tools needed): loudness of a sine against the
// figure BS.1770 gives by construction, clipped runs and edge silence counted exactly, the AIFF
// and WAV readers agreeing, and the warnings' thresholds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureAudio, qualityWarnings, type AudioMeasurement } from '../../src/audio/quality.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-qc-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Stereo 16-bit PCM frames from a function of the frame index (the same value on both channels). */
function pcm16(frames: number, sample: (i: number) => number, bigEndian = false): Buffer {
  const b = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const v = Math.max(-32768, Math.min(32767, Math.round(sample(i) * 32768)));
    if (bigEndian) {
      b.writeInt16BE(v, i * 4);
      b.writeInt16BE(v, i * 4 + 2);
    } else {
      b.writeInt16LE(v, i * 4);
      b.writeInt16LE(v, i * 4 + 2);
    }
  }
  return b;
}

function wav(rate: number, data: Buffer): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 4, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

function aiff(rate: number, data: Buffer): Buffer {
  const comm = Buffer.alloc(26);
  comm.write('COMM', 0, 'latin1');
  comm.writeUInt32BE(18, 4);
  comm.writeInt16BE(2, 8);
  comm.writeUInt32BE(data.length / 4, 10);
  comm.writeInt16BE(16, 14);
  // 80-bit extended sample rate: exponent, then the mantissa with its leading 1 at bit 63.
  const e = Math.floor(Math.log2(rate));
  comm.writeUInt16BE(16383 + e, 16);
  comm.writeUInt32BE((rate / 2 ** e) * 2 ** 31, 18);
  const ssnd = Buffer.alloc(16);
  ssnd.write('SSND', 0, 'latin1');
  ssnd.writeUInt32BE(8 + data.length, 4);
  const form = Buffer.alloc(12);
  form.write('FORM', 0, 'latin1');
  form.writeUInt32BE(4 + comm.length + ssnd.length + data.length, 4);
  form.write('AIFF', 8, 'latin1');
  return Buffer.concat([form, comm, ssnd, data]);
}

const sine = (rate: number, hz: number, dbfs: number) => (i: number) => 10 ** (dbfs / 20) * Math.sin((2 * Math.PI * hz * i) / rate);

async function measured(name: string, bytes: Buffer): Promise<AudioMeasurement> {
  await writeFile(join(work, name), bytes);
  const r = await measureAudio(join(work, name));
  if (!r.measured) throw new Error(r.reason);
  return r.measurement;
}

describe('quality meters', () => {
  it('a stereo 1 kHz sine at -20 dBFS reads -20.0 LUFS (K-weighting gives +0.69 dB at 1 kHz) and peaks at -20 dBTP', async () => {
    const m = await measured('sine.wav', wav(48_000, pcm16(48_000 * 10, sine(48_000, 1000, -20))));
    expect(m.loudnessLufs!).toBeCloseTo(-20, 1);
    expect(m.truePeakDbtp!).toBeCloseTo(-20, 1);
    expect([m.clippedRuns, m.silent]).toEqual([0, false]);
  });

  it('AIFF (big-endian) and WAV of the same samples measure the same', async () => {
    const samples = (big: boolean) => pcm16(44_100 * 5, sine(44_100, 440, -12), big);
    const a = await measured('s.aiff', aiff(44_100, samples(true)));
    const w = await measured('s.wav', wav(44_100, samples(false)));
    expect({ ...a, container: 'same' }).toEqual({ ...w, container: 'same' });
    expect([a.container, w.container]).toEqual(['AIFF', 'WAV']);
  });

  it('counts silence at both ends and runs of 3+ full-scale samples per channel', async () => {
    const rate = 44_100;
    // 3 s of zeros, 1 s of a square wave at full scale (4-sample half periods: each one a run), 2.5 s of zeros.
    const m = await measured(
      'edges.wav',
      wav(
        rate,
        pcm16(rate * 6.5, (i) => (i < rate * 3 || i >= rate * 4 ? 0 : Math.floor(i / 4) % 2 ? -1 : 1)),
      ),
    );
    expect(m.leadingSilenceSeconds).toBeCloseTo(3, 3);
    expect(m.trailingSilenceSeconds).toBeCloseTo(2.5, 3);
    expect(m.clippedRuns).toBe(2 * Math.ceil(rate / 4));
    expect(qualityWarnings(m).map((w) => w.code)).toEqual([
      'audio_silence_at_start',
      'audio_silence_at_end',
      'audio_clipping',
      'audio_true_peak_over',
      'audio_too_loud',
    ]);
  });

  it('all zeros is one warning: silent throughout', async () => {
    const m = await measured(
      'zeros.wav',
      wav(
        44_100,
        pcm16(44_100, () => 0),
      ),
    );
    expect([m.silent, m.loudnessLufs, m.truePeakDbtp]).toEqual([true, undefined, undefined]);
    expect(qualityWarnings(m).map((w) => w.code)).toEqual(['audio_silent']);
  });

  it('a FLAC file without its stream information is not measured, with the reason', async () => {
    await writeFile(join(work, 'x.flac'), Buffer.from('fLaC\0\0\0\0'));
    expect(await measureAudio(join(work, 'x.flac'))).toEqual({ measured: false, reason: 'the FLAC file does not start with its stream information' });
  });

  it('the FLAC files of the example release are decoded and measured', async () => {
    const m = await measureAudio('examples/first-release/audio/first-light.flac');
    expect(m.measured).toBe(true);
    if (m.measured) expect([m.measurement.silent, m.measurement.clippedRuns, Math.round(m.measurement.loudnessLufs!)]).toEqual([false, 0, -20]);
  });
});

describe('quality warnings', () => {
  const base: AudioMeasurement = {
    loudnessLufs: -14,
    truePeakDbtp: -1.5,
    leadingSilenceSeconds: 0.5,
    trailingSilenceSeconds: 2,
    clippedRuns: 0,
    silent: false,
    container: 'WAV',
    lossyCutoffHz: undefined,
  };
  it('a typical master earns none; 2 s of silence at an end is still fine', () => {
    expect(qualityWarnings(base)).toEqual([]);
  });
  it("an encoder's low-pass earns a warning naming the cut-off and the container", () => {
    expect(qualityWarnings({ ...base, lossyCutoffHz: 16_150, container: 'AIFF' })).toEqual([
      {
        code: 'audio_lossy_source',
        message: 'looks like lossy audio (MP3/AAC-like cut-off at 16 kHz) in an AIFF container; deliver the lossless master instead',
      },
    ]);
  });
  it('each figure past its limit earns one warning naming the figure', () => {
    expect(qualityWarnings({ ...base, truePeakDbtp: -0.84 })).toEqual([
      { code: 'audio_true_peak_over', message: "true peak -0.8 dBTP is above -1 dBTP; lossy encoding will clip: limit the master's true peak to -1 dBTP" },
    ]);
    expect(qualityWarnings({ ...base, loudnessLufs: -8.5 }).map((w) => w.message)).toEqual([
      'loudness -8.5 LUFS is above -9 LUFS; stores turn it down, so it only loses dynamics: consider a less limited master',
    ]);
    expect(qualityWarnings({ ...base, loudnessLufs: -26 }).map((w) => w.code)).toEqual(['audio_too_quiet']);
    expect(qualityWarnings({ ...base, clippedRuns: 1 }).map((w) => w.message)).toEqual([
      '1 clipped run (3 or more full-scale samples in a row); master again with a limiter below full scale',
    ]);
  });
});
