// Streams the integer samples of a PCM WAV or AIFF file, a bounded block at a time, as planar
// floats in [-1, 1): both formats are a header and one chunk of interleaved integers, so a reader
// of our own is a few lines (the quality checks in quality.ts decode with it, never the whole file).
import { open, type FileHandle } from 'node:fs/promises';
import { parseWavFormatChunk } from './wav-format.js';

/** Where a file's samples are and how they are laid out. */
export interface PcmLayout {
  channels: number;
  sampleRate: number;
  /** Bytes per sample as stored (a 24-bit sample in a 32-bit container takes 4). */
  bytesPerSample: number;
  /** Significant bits (<= bytesPerSample * 8); the rest are padding at the bottom. */
  validBits: number;
  littleEndian: boolean;
  /** 8-bit samples stored unsigned (offset binary), as WAV does; AIFF's are signed like every width. */
  unsigned8: boolean;
  /** Byte offset and length of the interleaved samples. */
  dataOffset: number;
  dataBytes: number;
}

/** A block of `frames` frames: one array per channel (only the first `frames` entries count). */
export type PcmBlock = { channels: Float64Array[]; frames: number };

/** Why a file cannot be decoded here, in words (the quality checks show it as "not measured"). */
export class NotDecodable extends Error {}

/** Frames per block: bounded memory whatever the file's length (a few hundred kB per channel). */
const BLOCK_FRAMES = 32_768;
/** Chunks walked before giving up (real files have a handful). */
const MAX_CHUNKS = 256;

/** The sample layout of the WAV or AIFF file at `path`, or throws NotDecodable saying why. */
export async function readPcmLayout(path: string): Promise<PcmLayout> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const head = await readAt(fh, 0, 12);
    const magic = head.toString('latin1', 0, 4);
    const kind = head.toString('latin1', 8, 12);
    if (magic === 'RIFF' && kind === 'WAVE') return await wavLayout(fh, size);
    if (magic === 'FORM' && (kind === 'AIFF' || kind === 'AIFC')) return await aiffLayout(fh, size, kind === 'AIFC');
    throw new NotDecodable('only PCM WAV, AIFF and FLAC are decoded');
  } finally {
    await fh.close();
  }
}

async function readAt(fh: FileHandle, pos: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, pos);
  return buf.subarray(0, bytesRead);
}

async function wavLayout(fh: FileHandle, size: number): Promise<PcmLayout> {
  let fmt: Buffer | undefined;
  let pos = 12;
  for (let i = 0; i < MAX_CHUNKS && pos + 8 <= size; i++) {
    const h = await readAt(fh, pos, 8);
    const id = h.toString('latin1', 0, 4);
    const chunkSize = h.readUInt32LE(4);
    if (id === 'fmt ') fmt = await readAt(fh, pos + 8, Math.min(chunkSize, 64));
    if (id === 'data') {
      const enc = fmt && parseWavFormatChunk(fmt);
      if (!fmt || !enc) throw new NotDecodable('the WAV file has no format chunk before its data');
      if (!enc.pcm) throw new NotDecodable(`the WAV file's audio is ${enc.name}, not PCM`);
      const channels = fmt.readUInt16LE(2);
      const bytesPerSample = channels > 0 ? fmt.readUInt16LE(12) / channels : 0;
      // Streaming writers leave the size at 0 or 0xFFFFFFFF: the data then runs to the end.
      const dataOffset = pos + 8;
      const dataBytes = chunkSize === 0 || dataOffset + chunkSize > size ? size - dataOffset : chunkSize;
      return checked({
        channels,
        sampleRate: fmt.readUInt32LE(4),
        bytesPerSample,
        validBits: enc.bitsPerSample,
        littleEndian: true,
        unsigned8: true,
        dataOffset,
        dataBytes,
      });
    }
    pos += 8 + chunkSize + (chunkSize % 2);
  }
  throw new NotDecodable('the WAV file has no data chunk');
}

async function aiffLayout(fh: FileHandle, size: number, compressed: boolean): Promise<PcmLayout> {
  let comm: Buffer | undefined;
  let pos = 12;
  for (let i = 0; i < MAX_CHUNKS && pos + 8 <= size; i++) {
    const h = await readAt(fh, pos, 8);
    const id = h.toString('latin1', 0, 4);
    const chunkSize = h.readUInt32BE(4);
    if (id === 'COMM') comm = await readAt(fh, pos + 8, Math.min(chunkSize, 64));
    if (id === 'SSND') {
      if (!comm || comm.length < 18) throw new NotDecodable('the AIFF file has no COMM chunk before its sound data');
      let littleEndian = false;
      if (compressed) {
        const type = comm.length >= 22 ? comm.toString('latin1', 18, 22) : '';
        if (type === 'sowt') littleEndian = true;
        else if (type !== 'NONE' && type !== 'twos') throw new NotDecodable(`the AIFF-C file's audio is compressed (${type.trim() || 'unknown'})`);
      }
      const channels = comm.readInt16BE(0);
      const frames = comm.readUInt32BE(2);
      const validBits = comm.readInt16BE(6);
      const bytesPerSample = Math.ceil(validBits / 8);
      const offset = (await readAt(fh, pos + 8, 4)).readUInt32BE(0);
      const dataOffset = pos + 16 + offset;
      const dataBytes = Math.min(frames * channels * bytesPerSample, size - dataOffset);
      return checked({
        channels,
        sampleRate: extended80(comm.subarray(8, 18)),
        bytesPerSample,
        validBits,
        littleEndian,
        unsigned8: false,
        dataOffset,
        dataBytes,
      });
    }
    pos += 8 + chunkSize + (chunkSize % 2);
  }
  throw new NotDecodable('the AIFF file has no sound data chunk');
}

/** An IEEE 754 80-bit extended float (AIFF's sample rate). */
function extended80(b: Buffer): number {
  const exponent = (b.readUInt16BE(0) & 0x7fff) - 16383;
  const mantissa = b.readUInt32BE(2) * 2 ** 32 + b.readUInt32BE(6);
  return Math.round(mantissa * 2 ** (exponent - 63)) * (b[0]! & 0x80 ? -1 : 1);
}

function checked(l: PcmLayout): PcmLayout {
  if (l.channels < 1 || l.channels > 32) throw new NotDecodable(`the file declares ${l.channels} channels`);
  if (![1, 2, 3, 4].includes(l.bytesPerSample) || l.validBits < 8 || l.validBits > l.bytesPerSample * 8) {
    throw new NotDecodable(`${l.validBits}-bit samples in ${l.bytesPerSample * 8}-bit containers are not decoded`);
  }
  if (!(l.sampleRate >= 8000 && l.sampleRate <= 768_000)) throw new NotDecodable(`the sample rate ${l.sampleRate} Hz is not decoded`);
  if (l.dataBytes < 0) throw new NotDecodable('the file ends before its audio data');
  return l;
}

/** The largest positive sample value, as a float: a sample at or above it is full scale. */
export function fullScale(l: PcmLayout): number {
  const padding = 2 ** (l.bytesPerSample * 8 - l.validBits);
  return ((2 ** (l.validBits - 1) - 1) * padding) / 2 ** (l.bytesPerSample * 8 - 1);
}

/** Calls `onBlock` for each block of the file's samples, in order; memory stays one block. */
export async function streamPcm(path: string, l: PcmLayout, onBlock: (block: PcmBlock) => void): Promise<void> {
  const frameBytes = l.channels * l.bytesPerSample;
  const raw = Buffer.alloc(BLOCK_FRAMES * frameBytes);
  const channels = Array.from({ length: l.channels }, () => new Float64Array(BLOCK_FRAMES));
  const bits = l.bytesPerSample * 8;
  const scale = 1 / 2 ** (bits - 1);
  const fh = await open(path, 'r');
  try {
    let done = 0;
    const total = l.dataBytes - (l.dataBytes % frameBytes);
    while (done < total) {
      const want = Math.min(raw.length, total - done);
      const { bytesRead } = await fh.read(raw, 0, want, l.dataOffset + done);
      const frames = Math.floor(bytesRead / frameBytes);
      if (frames === 0) break;
      for (let c = 0; c < l.channels; c++) {
        const out = channels[c]!;
        let p = c * l.bytesPerSample;
        for (let f = 0; f < frames; f++, p += frameBytes) {
          let v: number;
          if (bits === 16) v = l.littleEndian ? raw.readInt16LE(p) : raw.readInt16BE(p);
          else if (bits === 24) {
            v = l.littleEndian ? raw[p]! | (raw[p + 1]! << 8) | (raw[p + 2]! << 16) : (raw[p]! << 16) | (raw[p + 1]! << 8) | raw[p + 2]!;
            if (v & 0x800000) v -= 0x1000000;
          } else if (bits === 32) v = l.littleEndian ? raw.readInt32LE(p) : raw.readInt32BE(p);
          else v = l.unsigned8 ? raw[p]! - 128 : raw.readInt8(p);
          out[f] = v * scale;
        }
      }
      onBlock({ channels, frames });
      done += frames * frameBytes;
    }
  } finally {
    await fh.close();
  }
}
