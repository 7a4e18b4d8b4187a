// Reads what an audio file really is (never trusting its name): a plain WAV or AIFF from its chunk
// headers (riff-wave.ts, iff-aiff.ts), anything else with music-metadata, container and stream,
// with our own reading of a WAV's fmt chunk for its sample encoding (wav-format.ts). Used by the
// service's upload route and, offline, by the CLI; the rules that judge the facts are rules.ts.
import { openAsBlob } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import {
  audioFileProblems,
  audioSizeProblem,
  formatInWords,
  formatOf,
  UNREADABLE_AUDIO,
  type AudioProblem,
  type ProbedAudio,
  type UnsupportedContainer,
} from './rules.js';
import { measureAudio, qualityWarnings, type AudioWarning, type QualityResult } from './quality.js';
import { readPlainAiff } from './iff-aiff.js';
import { readPlainWave } from './riff-wave.js';
import { parseWavFormatChunk, type WavEncoding } from './wav-format.js';

export interface Probe {
  facts: ProbedAudio;
  /**
   * What is worth knowing but not refused. Empty for now: music-metadata's own warnings are not
   * passed on (it warns "Data chunk size exceeds file size" on every well-formed WAV).
   */
  warnings: string[];
  /** The title in the file's tags, as read (untrimmed); undefined when it has none. */
  title: string | undefined;
}

/** The facts of the file at `path` (`fileSize` bytes), or undefined when no reader understands it. */
export async function probeAudioFile(path: string, fileSize: number): Promise<Probe | undefined> {
  const container = await sniffUnsupportedContainer(path).catch(() => undefined);
  if (container) return { facts: { ...UNKNOWN_FACTS, container, fileSize }, warnings: [], title: undefined };
  // A file that cannot be opened or read goes to music-metadata too, which answers as it always has.
  const plain = await readPlainHeaders(path, fileSize).catch(() => undefined);
  if (!plain) return probeWithMusicMetadata(path, fileSize);
  // A plain file has no tag chunks, so no title: the same answer music-metadata gives.
  return { facts: { ...plain, bitsPerSample: positive(plain.bitsPerSample), fileSize }, warnings: [], title: undefined };
}

const UNKNOWN_FACTS = { codec: undefined, sampleRate: undefined, channels: undefined, bitsPerSample: undefined, durationSeconds: undefined };

/** A figure a header gave, or undefined for none, null or 0 (compressed audio in a WAV states 0 bits). */
const positive = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined);

/** Sony Wave64's first 16 bytes: the GUID of its "riff" chunk. */
const W64_RIFF_GUID = Buffer.from('726966662e91cf11a5d628db04c10000', 'hex');

/**
 * The containers we do not take, known from their first bytes (music-metadata reads an RF64 file
 * as MPEG audio and does not know Wave64 or CAF): undefined for any other file.
 */
async function sniffUnsupportedContainer(path: string): Promise<UnsupportedContainer | undefined> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await fh.read(head, 0, 16, 0);
    if (bytesRead < 12) return undefined;
    const id = head.toString('latin1', 0, 4);
    const form = head.toString('latin1', 8, 12);
    if ((id === 'RF64' || id === 'BW64' || id === 'RIFX') && form === 'WAVE') return id;
    if (id === 'caff' && head.readUInt16BE(4) === 1) return 'CAF';
    if (bytesRead === 16 && head.equals(W64_RIFF_GUID)) return 'W64';
    return undefined;
  } finally {
    await fh.close();
  }
}

/** The facts of a plain WAV or AIFF from its chunk headers, or undefined for any other file. */
async function readPlainHeaders(path: string, fileSize: number): Promise<Omit<ProbedAudio, 'fileSize'> | undefined> {
  const fh = await open(path, 'r');
  try {
    const wave = await readPlainWave(fh, fileSize);
    if (wave) return { ...wave, bitsPerSample: wave.wavEncoding?.bitsPerSample ?? wave.bitsPerSample };
    const aiff = await readPlainAiff(fh, fileSize);
    return aiff && { ...aiff, wavEncoding: undefined };
  } finally {
    await fh.close();
  }
}

/** probeAudioFile with music-metadata, whatever the file (exported for the differential test). */
export async function probeWithMusicMetadata(path: string, fileSize: number): Promise<Probe | undefined> {
  // Loaded here, not at start-up: the service and the CLI pay for it only when they read audio.
  const { parseBlob } = await import('music-metadata');
  let meta: Awaited<ReturnType<typeof parseBlob>>;
  try {
    // As a nameless blob: the parser is chosen from the content, never from the file's extension
    // (the service stores uploads as .part files; the CLI must judge "notes.wav" the same way).
    meta = await parseBlob(await openAsBlob(path), { duration: true, skipCovers: true });
  } catch {
    return undefined;
  }
  const f = meta.format;
  const wav = formatOf(f.container) === 'wav' ? await readWavEncoding(path) : undefined;
  return {
    facts: {
      container: f.container,
      codec: f.codec,
      wavEncoding: wav,
      sampleRate: positive(f.sampleRate),
      channels: positive(f.numberOfChannels),
      bitsPerSample: positive(wav?.bitsPerSample ?? f.bitsPerSample),
      durationSeconds: f.duration ?? undefined,
      fileSize,
    },
    warnings: [],
    title: meta.common.title,
  };
}

/** Chunks walked before giving up on finding "fmt " (real files have a handful). */
const MAX_CHUNKS = 256;

/** The encoding in a RIFF/WAVE file's fmt chunk, or undefined when there is none before the data. */
async function readWavEncoding(path: string): Promise<WavEncoding | undefined> {
  const fh = await open(path, 'r');
  try {
    const header = Buffer.alloc(8);
    let pos = 12; // after "RIFF", the size and "WAVE"
    for (let i = 0; i < MAX_CHUNKS; i++) {
      const { bytesRead } = await fh.read(header, 0, 8, pos);
      if (bytesRead < 8) return undefined;
      const id = header.toString('latin1', 0, 4);
      const size = header.readUInt32LE(4);
      if (id === 'fmt ') {
        const body = Buffer.alloc(Math.min(size, 64));
        const read = await fh.read(body, 0, body.length, pos + 8);
        return parseWavFormatChunk(body.subarray(0, read.bytesRead));
      }
      if (id === 'data') return undefined;
      pos += 8 + size + (size % 2); // chunks are padded to an even length
    }
    return undefined;
  } finally {
    await fh.close();
  }
}

/** One file held against every audio rule, as `track check` shows it and uploads check it. */
export interface AudioCheck {
  path: string;
  /** In words: "WAV, PCM (extensible)", "FLAC", "MPEG (MPEG 1 Layer 3)". */
  format: string;
  channels: number | undefined;
  sampleRate: number | undefined;
  bitDepth: number | undefined;
  durationSeconds: number | undefined;
  sizeBytes: number;
  /** Every rule the file breaks, in the service's order (the service refuses with the first). */
  errors: AudioProblem[];
  /** The quality checks' findings (only when measured: they are never refusals). */
  warnings: AudioWarning[];
  /** What the quality checks measured, when asked for and the file is audio in a format we read. */
  quality?: QualityResult;
  /** The title in the file's tags, read by the same probe (a track's title when none is given). */
  title?: string;
}

/**
 * Checks the file at `path` (which must exist: a missing file throws the file system's error);
 * with `measure`, also decodes it for the quality checks (quality.ts: a full read of the audio).
 */
export async function checkAudioPath(path: string, options: { measure?: boolean } = {}): Promise<AudioCheck> {
  const { size } = await stat(path);
  const base = { path, sizeBytes: size, channels: undefined, sampleRate: undefined, bitDepth: undefined, durationSeconds: undefined };
  const tooLarge = audioSizeProblem(size);
  if (tooLarge) return { ...base, format: 'not read (too large)', errors: [tooLarge], warnings: [] };
  const probe = await probeAudioFile(path, size);
  if (!probe) return { ...base, format: formatInWords({ container: undefined, codec: undefined }), errors: [UNREADABLE_AUDIO], warnings: [] };
  const p = probe.facts;
  const quality = options.measure && formatOf(p.container) ? await measureAudio(path) : undefined;
  return {
    ...base,
    format: formatInWords(p),
    channels: p.channels,
    sampleRate: p.sampleRate,
    bitDepth: p.bitsPerSample,
    durationSeconds: p.durationSeconds,
    errors: audioFileProblems(p),
    warnings: quality?.measured ? qualityWarnings(quality.measurement) : [],
    ...(quality ? { quality } : {}),
    ...(probe.title !== undefined ? { title: probe.title } : {}),
  };
}
