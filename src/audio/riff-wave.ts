// The facts of a plain RIFF/WAVE file read from its chunk headers alone, without music-metadata:
// loading and running that parser was a fifth of a `track upload`'s fixed cost, and a WAV's fmt
// and data chunks hold every fact the rules judge. "Plain" is narrow on purpose: the chunks are
// walked as music-metadata's WaveParser walks them and the same facts come out (the differential
// test, test/unit/audio-riff-wave.test.ts, holds the two side by side); anything that parser
// treats specially (a title, ID3 tags, code pages, broadcast extension, several fmt or data
// chunks, a chunk running past the end of the file) answers undefined, and the caller asks
// music-metadata.
import type { FileHandle } from 'node:fs/promises';
import { parseWavFormatChunk, type WavEncoding } from './wav-format.js';

export interface PlainWave {
  container: 'WAVE';
  /** The format tag as music-metadata names it ("PCM", "IEEE_FLOAT", "non-PCM (65534)"). */
  codec: string;
  wavEncoding: WavEncoding | undefined;
  sampleRate: number;
  channels: number;
  /** The fmt chunk's container bits per sample (not an extensible header's valid bits). */
  bitsPerSample: number;
  durationSeconds: number | undefined;
}

/** music-metadata's names for WAVE format tags (its WaveChunk.WaveFormatNameMap). */
const CODEC_NAMES: Record<number, string> = {
  0x0001: 'PCM',
  0x0002: 'ADPCM',
  0x0003: 'IEEE_FLOAT',
  0x0006: 'ALAW',
  0x0007: 'MULAW',
  0x0011: 'DVI_ADPCM',
  0x0031: 'GSM610',
  0x1600: 'MPEG_ADTS_AAC',
  0x1602: 'MPEG_LOAS',
  0x00ff: 'RAW_AAC1',
  0x0092: 'DOLBY_AC3_SPDIF',
  0x2000: 'DVM',
  0x0240: 'RAW_SPORT',
  0x0241: 'ESST_AC3',
  0x0009: 'DRM',
  0x2001: 'DTS2',
  0x0050: 'MPEG',
  0x0055: 'MPEGLAYER3',
};

/** Chunks that carry tags or change how they are read: music-metadata reads those files. */
const NOT_PLAIN = new Set(['id3 ', 'ID3 ', 'CSET', 'bext']);
/** Chunks walked before giving up (real files have a handful). */
const MAX_CHUNKS = 64;
/** Bytes of a fmt chunk worth reading: an extensible header is 40. */
const FMT_READ = 64;

/** The facts of the plain WAVE file open as `fh` (`fileSize` bytes), or undefined when it is not one. */
export async function readPlainWave(fh: FileHandle, fileSize: number): Promise<PlainWave | undefined> {
  const head = Buffer.alloc(FMT_READ);
  const read = async (length: number, position: number) => (await fh.read(head, 0, length, position)).bytesRead === length;
  if (!(await read(12, 0)) || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  // As WaveParser counts: the RIFF size less the form type, each chunk's header and body (its
  // padding byte is skipped but not counted), walking while a whole header could still follow.
  let remaining = head.readUInt32LE(4) - 4;
  let pos = 12;
  let fmt: { tag: number; channels: number; sampleRate: number; blockAlign: number; bits: number; encoding: WavEncoding | undefined } | undefined;
  let factSamples: number | undefined;
  let data: { samples: number | undefined } | undefined;
  for (let i = 0; remaining >= 8; i++) {
    if (i === MAX_CHUNKS || !(await read(8, pos))) return undefined;
    const id = head.toString('latin1', 0, 4);
    const size = head.readUInt32LE(4);
    const body = pos + 8;
    if (NOT_PLAIN.has(id) || body + size > fileSize) return undefined;
    remaining -= 8 + size;
    if (id === 'LIST') {
      if (!(await plainList(fh, body, size))) return undefined;
    } else if (id === 'fmt ') {
      if (fmt || size < 16 || !(await read(Math.min(size, FMT_READ), body))) return undefined;
      fmt = {
        tag: head.readUInt16LE(0),
        channels: head.readUInt16LE(2),
        sampleRate: head.readUInt32LE(4),
        blockAlign: head.readUInt16LE(12),
        bits: head.readUInt16LE(14),
        encoding: parseWavFormatChunk(head.subarray(0, Math.min(size, FMT_READ))),
      };
    } else if (id === 'fact') {
      if (size < 4 || !(await read(4, body))) return undefined;
      factSamples = head.readUInt32LE(0);
    } else if (id === 'data') {
      // Audio before its format, or a second data chunk: rare enough to leave to music-metadata.
      if (!fmt || fmt.blockAlign === 0 || data) return undefined;
      // Counted as WaveParser counts: from a fact chunk before the data, else from its size.
      data = { samples: factSamples ?? (size === 0xffffffff ? undefined : size / fmt.blockAlign) };
    }
    pos = body + size + (size % 2);
  }
  if (!fmt || !data) return undefined;
  const { samples } = data;
  return {
    container: 'WAVE',
    codec: CODEC_NAMES[fmt.tag] ?? `non-PCM (${fmt.tag})`,
    wavEncoding: fmt.encoding,
    sampleRate: fmt.sampleRate,
    channels: fmt.channels,
    bitsPerSample: fmt.bits,
    durationSeconds: samples && fmt.sampleRate ? samples / fmt.sampleRate : undefined,
  };
}

/**
 * Whether a LIST chunk (at `body`, `size` bytes) leaves the file plain: any list but INFO is
 * skipped by WaveParser; an INFO list (ffmpeg writes one with its name in ISFT) is plain when it
 * has no title (INAM) and its entries add up exactly, as WaveParser requires.
 */
async function plainList(fh: FileHandle, body: number, size: number): Promise<boolean> {
  if (size < 4) return false;
  const head = Buffer.alloc(8);
  if ((await fh.read(head, 0, 4, body)).bytesRead < 4) return false;
  if (head.toString('latin1', 0, 4) !== 'INFO') return true;
  let left = size - 4;
  let pos = body + 4;
  for (let i = 0; left >= 8; i++) {
    if (i === MAX_CHUNKS || (await fh.read(head, 0, 8, pos)).bytesRead < 8) return false;
    if (head.toString('latin1', 0, 4) === 'INAM') return false;
    const entry = head.readUInt32LE(4);
    const padded = entry + (entry % 2);
    left -= 8 + padded;
    pos += 8 + padded;
  }
  return left === 0;
}
