// Streams the samples of a FLAC file through a maintained decoder (@wasm-audio-decoders/flac),
// a bounded chunk of the file at a time, re-cut into blocks of a fixed size for the meters.
import { open } from 'node:fs/promises';
import { NotDecodable, type PcmBlock } from './pcm-stream.js';

/** Frames per block handed on, and bytes of the file read at a time: memory stays bounded. */
const BLOCK_FRAMES = 32_768;
const READ_BYTES = 256 * 1024;

export interface FlacInfo {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

/** STREAMINFO, the first metadata block every FLAC file starts with (RFC 9639, 8.2). */
export async function readFlacInfo(path: string): Promise<FlacInfo> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(8 + 34);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (bytesRead < head.length || head.toString('latin1', 0, 4) !== 'fLaC' || (head[4]! & 0x7f) !== 0) {
      throw new NotDecodable('the FLAC file does not start with its stream information');
    }
    const info = head.subarray(8);
    // Bits 80-99 sample rate, 100-102 channels - 1, 103-107 bits per sample - 1.
    const sampleRate = (info[10]! << 12) | (info[11]! << 4) | (info[12]! >> 4);
    const channels = ((info[12]! >> 1) & 0x07) + 1;
    const bitsPerSample = (((info[12]! & 0x01) << 4) | (info[13]! >> 4)) + 1;
    if (sampleRate === 0) throw new NotDecodable('the FLAC file gives no sample rate');
    return { channels, sampleRate, bitsPerSample };
  } finally {
    await fh.close();
  }
}

/** Calls `onBlock` for each block of decoded samples, in order. */
export async function streamFlac(path: string, info: FlacInfo, onBlock: (block: PcmBlock) => void): Promise<void> {
  // Loaded here, not at start-up: the decoder (WebAssembly and its worker glue) costs ~10 ms to
  // load, and the service and the upload commands load this module without measuring FLAC.
  const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
  const decoder = new FLACDecoder();
  await decoder.ready;
  const block = Array.from({ length: info.channels }, () => new Float64Array(BLOCK_FRAMES));
  let filled = 0;
  const take = (channelData: Float32Array[], samples: number) => {
    for (let i = 0; i < samples; ) {
      const n = Math.min(samples - i, BLOCK_FRAMES - filled);
      for (let c = 0; c < info.channels; c++) block[c]!.set(channelData[c]!.subarray(i, i + n), filled);
      filled += n;
      i += n;
      if (filled === BLOCK_FRAMES) {
        onBlock({ channels: block, frames: filled });
        filled = 0;
      }
    }
  };
  const fh = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(READ_BYTES);
    for (let pos = 0; ; ) {
      const { bytesRead } = await fh.read(chunk, 0, READ_BYTES, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const out = await decoder.decode(chunk.subarray(0, bytesRead));
      take(out.channelData, out.samplesDecoded);
    }
    const last = await decoder.flush();
    take(last.channelData, last.samplesDecoded);
    if (filled > 0) onBlock({ channels: block, frames: filled });
  } finally {
    await fh.close();
    decoder.free();
  }
}
