// The facts of a plain AIFF file read from its chunk headers alone, without music-metadata (see
// riff-wave.ts for why). As narrow as there: the chunks are walked as music-metadata's AIFFParser
// walks them, and anything it reads tags from (NAME, AUTH, "(c) ", ANNO, ID3), an AIFF-C file
// (its compression names), a second COMM or a chunk running past the end of the file answers
// undefined, so that music-metadata reads it (test/unit/audio-riff-wave.test.ts compares the two).
import type { FileHandle } from 'node:fs/promises';

export interface PlainAiff {
  container: 'AIFF';
  codec: 'PCM';
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationSeconds: number;
}

const NOT_PLAIN = new Set(['NAME', 'AUTH', '(c) ', 'ANNO', 'ID3 ']);
/** Chunks walked before giving up (real files have a handful). */
const MAX_CHUNKS = 64;
const COMM_LENGTH = 18;

/** The facts of the plain AIFF file open as `fh` (`fileSize` bytes), or undefined when it is not one. */
export async function readPlainAiff(fh: FileHandle, fileSize: number): Promise<PlainAiff | undefined> {
  const head = Buffer.alloc(COMM_LENGTH);
  const read = async (length: number, position: number) => (await fh.read(head, 0, length, position)).bytesRead === length;
  if (!(await read(12, 0)) || head.toString('latin1', 0, 4) !== 'FORM' || head.toString('latin1', 8, 12) !== 'AIFF') return undefined;
  let comm: Omit<PlainAiff, 'container' | 'codec'> | undefined;
  // As AIFFParser walks: to the end of the file (not of the FORM), each chunk padded to even.
  let pos = 12;
  for (let i = 0; fileSize - pos >= 8; i++) {
    if (i === MAX_CHUNKS || !(await read(8, pos))) return undefined;
    const id = head.toString('latin1', 0, 4);
    const size = head.readUInt32BE(4);
    const body = pos + 8;
    if (NOT_PLAIN.has(id) || body + size > fileSize) return undefined;
    if (id === 'COMM') {
      if (comm || size < COMM_LENGTH || !(await read(COMM_LENGTH, body))) return undefined;
      // The 80-bit extended sample rate, as music-metadata reads it: the top 16 bits of the
      // mantissa shifted by the exponent (exact for every integer rate below 65536 << n).
      const shift = head.readUInt16BE(8) - 16398;
      const base = head.readUInt16BE(10);
      const sampleRate = shift < 0 ? base >> -shift : base << shift;
      if (sampleRate === 0) return undefined;
      const frames = head.readUInt32BE(2);
      comm = { channels: head.readUInt16BE(0), bitsPerSample: head.readUInt16BE(6), sampleRate, durationSeconds: frames / sampleRate };
    }
    pos = body + 2 * Math.round(size / 2);
  }
  return comm && { container: 'AIFF', codec: 'PCM', ...comm };
}
