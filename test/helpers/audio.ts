// Test audio made on the spot (no binary fixtures): PCM WAV files with a chosen layout.
import { createHash } from 'node:crypto';

export interface WavOptions {
  seconds?: number;
  sampleRate?: number;
  channels?: number;
  bitDepth?: number;
  /** Claim this many data bytes in the header while writing `seconds` worth (a truncated file). */
  claimedDataBytes?: number;
}

/** A PCM WAV: RIFF header, fmt chunk, data chunk with a quiet square wave. */
export function makeWav(o: WavOptions = {}): Buffer {
  const seconds = o.seconds ?? 30;
  const rate = o.sampleRate ?? 44_100;
  const channels = o.channels ?? 2;
  const bits = o.bitDepth ?? 16;
  const blockAlign = channels * (bits / 8);
  const frames = Math.round(seconds * rate);
  const dataBytes = frames * blockAlign;
  const claimed = o.claimedDataBytes ?? dataBytes;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + claimed, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * blockAlign, 28);
  buf.writeUInt16LE(blockAlign, 32);
  buf.writeUInt16LE(bits, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(claimed, 40);
  // A quiet 100 Hz square wave on the first byte of every 441st frame: cheap and not silence.
  for (let f = 0; f < frames; f += 441) buf[44 + f * blockAlign] = (f / 441) % 2 === 0 ? 0x10 : 0xf0;
  return buf;
}

/** An MPEG-1 Layer III stream: a few valid frame headers (what "MP3 renamed to .wav" looks like). */
export function makeMp3Like(frames = 40): Buffer {
  // 128 kbit/s, 44.1 kHz, no padding, stereo: 417-byte frames.
  const frameLen = 417;
  const buf = Buffer.alloc(frames * frameLen);
  for (let i = 0; i < frames; i++) {
    buf[i * frameLen] = 0xff;
    buf[i * frameLen + 1] = 0xfb;
    buf[i * frameLen + 2] = 0x90;
    buf[i * frameLen + 3] = 0x00;
  }
  return buf;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
