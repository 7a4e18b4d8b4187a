// Test audio made on the spot (no binary fixtures): WAV files with a chosen layout and encoding.
import { createHash } from 'node:crypto';

export interface WavOptions {
  seconds?: number;
  sampleRate?: number;
  channels?: number;
  bitDepth?: number;
  /** Claim this many data bytes in the header while writing `seconds` worth (a truncated file). */
  claimedDataBytes?: number;
  /** Write WAVE_FORMAT_EXTENSIBLE (as ffmpeg and sox do for 24 bit and above 48 kHz). */
  extensible?: boolean;
  /** The samples' format tag (the sub-format's when extensible): PCM unless told. */
  encoding?: 'pcm' | 'float' | 'mp3' | 'alaw' | 'mulaw';
}

const FORMAT_TAGS = { pcm: 0x0001, float: 0x0003, alaw: 0x0006, mulaw: 0x0007, mp3: 0x0055 } as const;
/** The 14 bytes after the format tag in every KSDATAFORMAT_SUBTYPE GUID of a plain tag. */
const GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

/** A WAV (PCM unless told): RIFF header, fmt chunk, data chunk with a quiet square wave. */
export function makeWav(o: WavOptions = {}): Buffer {
  const seconds = o.seconds ?? 30;
  const rate = o.sampleRate ?? 44_100;
  const channels = o.channels ?? 2;
  const bits = o.bitDepth ?? 16;
  const blockAlign = channels * (bits / 8);
  const frames = Math.round(seconds * rate);
  const dataBytes = frames * blockAlign;
  const claimed = o.claimedDataBytes ?? dataBytes;
  const tag = FORMAT_TAGS[o.encoding ?? 'pcm'];
  const fmtSize = o.extensible ? 40 : 16;
  const head = 20 + fmtSize + 8; // RIFF+size+WAVE, fmt chunk header+body, data chunk header
  const buf = Buffer.alloc(head + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(head - 8 + claimed, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(fmtSize, 16);
  buf.writeUInt16LE(o.extensible ? 0xfffe : tag, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * blockAlign, 28);
  buf.writeUInt16LE(blockAlign, 32);
  buf.writeUInt16LE(bits, 34);
  if (o.extensible) {
    buf.writeUInt16LE(22, 36); // cbSize
    buf.writeUInt16LE(bits, 38); // valid bits per sample
    buf.writeUInt32LE(channels === 2 ? 0x3 : 0x4, 40); // channel mask: front left+right, or centre
    buf.writeUInt16LE(tag, 44);
    Buffer.from(GUID_TAIL).copy(buf, 46);
  }
  buf.write('data', head - 8, 'ascii');
  buf.writeUInt32LE(claimed, head - 4);
  // A quiet 100 Hz square wave on the first byte of every 441st frame: cheap and not silence.
  for (let f = 0; f < frames; f += 441) buf[head + f * blockAlign] = (f / 441) % 2 === 0 ? 0x10 : 0xf0;
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
