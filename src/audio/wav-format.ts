// What a WAV's fmt chunk says its samples are, read by us: music-metadata names only the format
// tag, so a WAVE_FORMAT_EXTENSIBLE file (what ffmpeg and sox write for 24 bit and above 48 kHz)
// would come out as "non-PCM (65534)" whatever its sub-format. Pure: bytes in, facts out.

/** The format tags we name (Microsoft's registered WAVE format tags). */
const TAG_NAMES: Record<number, string> = {
  0x0001: 'PCM',
  0x0002: 'ADPCM',
  0x0003: 'IEEE float',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0031: 'GSM 6.10',
  0x0050: 'MPEG audio in a WAV container',
  0x0055: 'MP3 in a WAV container',
  0x00ff: 'AAC in a WAV container',
  0x0092: 'Dolby AC-3 in a WAV container',
};

/** Compressed audio carried in a WAV: named as such in a refusal ("MP3 audio inside a WAV file"). */
const COMPRESSED: Record<number, string> = { 0x0050: 'MPEG', 0x0055: 'MP3', 0x00ff: 'AAC', 0x0092: 'Dolby AC-3' };

const PCM = 0x0001;
const EXTENSIBLE = 0xfffe;
/** The last 14 bytes every KSDATAFORMAT_SUBTYPE_* GUID for a plain format tag shares. */
const SUBFORMAT_GUID_TAIL = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]);

export interface WavEncoding {
  /** True when the samples are linear PCM: format tag 1, or extensible with the PCM sub-format. */
  pcm: boolean;
  extensible: boolean;
  /** In words, never a number: "PCM", "IEEE float", "extensible with a non-PCM sub-format (IEEE float)". */
  name: string;
  /** The significant bits per sample (an extensible header's valid bits when it gives them). */
  bitsPerSample: number;
  /** The codec's short name when the samples are compressed audio ("MP3"): a bit depth means nothing then. */
  compressed?: string;
}

const tagName = (tag: number) => TAG_NAMES[tag] ?? 'an encoding we do not know';

/** The encoding a fmt chunk's body describes, or undefined when it is too short to be one. */
export function parseWavFormatChunk(body: Uint8Array): WavEncoding | undefined {
  if (body.length < 16) return undefined;
  const b = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const tag = b.readUInt16LE(0);
  const containerBits = b.readUInt16LE(14);
  if (tag !== EXTENSIBLE) {
    const compressed = COMPRESSED[tag];
    return { pcm: tag === PCM, extensible: false, name: tagName(tag), bitsPerSample: containerBits, ...(compressed ? { compressed } : {}) };
  }
  // WAVEFORMATEXTENSIBLE: cbSize (2), valid bits (2), channel mask (4), sub-format GUID (16).
  if (b.length < 40 || b.readUInt16LE(16) < 22) {
    return { pcm: false, extensible: true, name: 'extensible with no sub-format', bitsPerSample: containerBits };
  }
  const validBits = b.readUInt16LE(18);
  const guid = b.subarray(24, 40);
  const subTag = guid.subarray(2).equals(SUBFORMAT_GUID_TAIL) ? guid.readUInt16LE(0) : undefined;
  const bitsPerSample = validBits > 0 ? validBits : containerBits;
  if (subTag === PCM) return { pcm: true, extensible: true, name: 'PCM (extensible)', bitsPerSample };
  const sub = subTag === undefined ? 'an encoding we do not know' : tagName(subTag);
  return { pcm: false, extensible: true, name: `extensible with a non-PCM sub-format (${sub})`, bitsPerSample };
}
