// A plain WAV or AIFF is read from its chunk headers without music-metadata (riff-wave.ts, iff-aiff.ts): on
// every layout here, the probe gives exactly what music-metadata's reading gives (facts, title,
// hence the same verdicts in the CLI and the service), and the common layouts really take the
// short way; tags, odd layouts and broken files are left to music-metadata.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { probeAudioFile, probeWithMusicMetadata } from '../../src/audio/probe.js';
import { readPlainAiff } from '../../src/audio/iff-aiff.js';
import { readPlainWave } from '../../src/audio/riff-wave.js';
import { makeWav, type WavOptions } from '../helpers/audio.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-riff-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const chunk = (id: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};

/** A generated WAV's chunks rearranged: `before` fmt, `between` fmt and data, `after` data; RIFF size recomputed. */
function layout(o: WavOptions, extra: { before?: Buffer[]; between?: Buffer[]; after?: Buffer[]; riffSize?: (real: number) => number } = {}): Buffer {
  const wav = makeWav(o);
  const fmtEnd = 20 + wav.readUInt32LE(16);
  const fmt = wav.subarray(12, fmtEnd);
  const data = wav.subarray(fmtEnd);
  const body = Buffer.concat([Buffer.from('WAVE'), ...(extra.before ?? []), fmt, ...(extra.between ?? []), data, ...(extra.after ?? [])]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(extra.riffSize ? extra.riffSize(body.length) : body.length, 4);
  return Buffer.concat([head, body]);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const list = (type: string, ...entries: Buffer[]) => chunk('LIST', Buffer.concat([Buffer.from(type), ...entries]));
const info = (title: string) => list('INFO', chunk('INAM', Buffer.from(`${title}\0`, 'latin1')));

const be = (bits: 16 | 32, n: number) => {
  const b = Buffer.alloc(bits / 8);
  if (bits === 16) b.writeUInt16BE(n);
  else b.writeUInt32BE(n);
  return b;
};
const ichunk = (id: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};
/** An AIFF: COMM (80-bit extended rate) and SSND, with `extra` chunks before COMM. */
function aiff(
  o: { seconds?: number; rate?: number; channels?: number; bits?: number; extra?: Buffer[]; form?: string; formSize?: (n: number) => number } = {},
): Buffer {
  const rate = o.rate ?? 44_100;
  const channels = o.channels ?? 2;
  const bits = o.bits ?? 16;
  const frames = Math.round((o.seconds ?? 31) * rate);
  const e = Math.floor(Math.log2(rate));
  const ext = Buffer.alloc(10);
  ext.writeUInt16BE(16383 + e, 0);
  ext.writeUInt32BE((rate / 2 ** e) * 2 ** 31, 2);
  const comm = ichunk('COMM', Buffer.concat([be(16, channels), be(32, frames), be(16, bits), ext]));
  const ssnd = ichunk('SSND', Buffer.concat([Buffer.alloc(8), Buffer.alloc(frames * channels * (bits / 8), 3)]));
  const body = Buffer.concat([Buffer.from(o.form ?? 'AIFF'), ...(o.extra ?? []), comm, ssnd]);
  const head = Buffer.alloc(8);
  head.write('FORM', 0, 'latin1');
  head.writeUInt32BE(o.formSize ? o.formSize(body.length) : body.length, 4);
  return Buffer.concat([head, body]);
}

/** [name, bytes, whether the short way reads it]. */
const cases: [string, () => Buffer, boolean][] = [
  ['16-bit PCM stereo', () => layout({ seconds: 31 }), true],
  ['24-bit PCM, extensible, 96 kHz', () => layout({ seconds: 31, bitDepth: 24, sampleRate: 96_000, extensible: true }), true],
  ['32-bit float', () => layout({ seconds: 31, bitDepth: 32, encoding: 'float' }), true],
  ['extensible float', () => layout({ seconds: 31, bitDepth: 32, encoding: 'float', extensible: true }), true],
  ['A-law', () => layout({ seconds: 31, bitDepth: 8, encoding: 'alaw' }), true],
  ['mono', () => layout({ seconds: 31, channels: 1 }), true],
  ['8-bit', () => layout({ seconds: 31, bitDepth: 8 }), true],
  ['22.05 kHz', () => layout({ seconds: 31, sampleRate: 22_050 }), true],
  ['too short', () => layout({ seconds: 3 }), true],
  ['empty data', () => layout({ seconds: 0 }), true],
  ['a JUNK chunk before fmt', () => layout({ seconds: 31 }, { before: [chunk('JUNK', Buffer.alloc(28))] }), true],
  ['an odd-sized unknown chunk', () => layout({ seconds: 31 }, { between: [chunk('odd ', Buffer.alloc(5, 1))] }), true],
  ['a fact chunk', () => layout({ seconds: 31 }, { between: [chunk('fact', u32(44_100 * 31))] }), true],
  ['a fact chunk counting fewer samples', () => layout({ seconds: 31 }, { between: [chunk('fact', u32(44_100 * 3))] }), true],
  ['a fact chunk after the data', () => layout({ seconds: 31 }, { after: [chunk('fact', u32(44_100 * 3))] }), true],
  ['a zero fact', () => layout({ seconds: 31 }, { between: [chunk('fact', u32(0))] }), true],
  ['trailing bytes past the RIFF size', () => Buffer.concat([layout({ seconds: 31 }), Buffer.alloc(300, 7)]), true],
  ['a RIFF size ending at the data', () => layout({ seconds: 31 }, { after: [chunk('JUNK', Buffer.alloc(10))], riffSize: (n) => n - 18 }), true],
  ['a LIST/INFO title', () => layout({ seconds: 31 }, { after: [info('Evening Tide')] }), false],
  [
    'a LIST/INFO with no title (as ffmpeg writes)',
    () => layout({ seconds: 31 }, { between: [list('INFO', chunk('ISFT', Buffer.from('Lavf60.16.100\0')))] }),
    true,
  ],
  [
    'a LIST/INFO with an odd-sized entry',
    () => layout({ seconds: 31 }, { after: [list('INFO', chunk('IART', Buffer.from('Nina Vale')), chunk('ICMT', Buffer.from('ok\0\0')))] }),
    true,
  ],
  [
    'a LIST/INFO whose entries overrun it',
    () => {
      const bad = list('INFO', chunk('ISFT', Buffer.from('Lavf60\0\0')));
      bad.writeUInt32LE(100, 16); // the entry claims more than the list holds
      return layout({ seconds: 31 }, { after: [bad] });
    },
    false,
  ],
  ['a LIST of another kind', () => layout({ seconds: 31 }, { after: [list('adtl', chunk('labl', Buffer.alloc(12)))] }), true],
  ['an id3 chunk', () => layout({ seconds: 31 }, { after: [chunk('id3 ', Buffer.alloc(16))] }), false],
  ['a bext chunk', () => layout({ seconds: 31 }, { before: [chunk('bext', Buffer.alloc(602))] }), false],
  ['truncated (data claims more than the file)', () => layout({ seconds: 31, claimedDataBytes: 44_100 * 4 * 60 }), false],
  ['a RIFF size too small for the data', () => layout({ seconds: 31 }, { riffSize: () => 40 }), true],
  ['a RIFF size ending inside fmt', () => layout({ seconds: 31 }, { riffSize: () => 20 }), false],
  ['a RIFF size past the end', () => layout({ seconds: 31 }, { riffSize: (n) => n + 1000 }), false],
  ['two fmt chunks', () => layout({ seconds: 31 }, { before: [makeWav({ seconds: 0, sampleRate: 48_000 }).subarray(12, 36)] }), false],
  [
    'data before fmt',
    () => {
      const wav = makeWav({ seconds: 31 });
      return Buffer.concat([wav.subarray(0, 12), wav.subarray(36), wav.subarray(12, 36)]);
    },
    false,
  ],
  [
    'a fmt chunk too short',
    () => {
      const wav = Buffer.from(layout({ seconds: 31 }));
      wav.writeUInt32LE(14, 16);
      return wav;
    },
    false,
  ],
  ['no data chunk', () => makeWav({ seconds: 31 }).subarray(0, 36), false],
  ['not RIFF', () => Buffer.from('not audio at all, only some words in a file'), false],
  ['RIFF but not WAVE', () => Buffer.concat([Buffer.from('RIFF'), u32(4), Buffer.from('AVI ')]), false],
  ['AIFF 16-bit stereo', () => aiff(), true],
  ['AIFF 24-bit 96 kHz', () => aiff({ bits: 24, rate: 96_000 }), true],
  ['AIFF 192 kHz', () => aiff({ rate: 192_000, seconds: 2 }), true],
  ['AIFF 22.05 kHz mono', () => aiff({ rate: 22_050, channels: 1 }), true],
  ['AIFF too short', () => aiff({ seconds: 3 }), true],
  ['AIFF with an odd-sized unknown chunk', () => aiff({ extra: [ichunk('MARK', Buffer.alloc(3, 1))] }), true],
  ['AIFF with a FORM size past the end', () => aiff({ formSize: (n) => n + 500 }), true],
  ['AIFF with trailing bytes (read as a chunk past the end)', () => Buffer.concat([aiff(), Buffer.alloc(40, 9)]), false],
  ['AIFF with a NAME chunk', () => aiff({ extra: [ichunk('NAME', Buffer.from('Harbour Lights'))] }), false],
  ['AIFF with an ID3 chunk', () => aiff({ extra: [ichunk('ID3 ', Buffer.alloc(10))] }), false],
  ['AIFF-C', () => aiff({ form: 'AIFC' }), false],
  ['AIFF truncated', () => aiff().subarray(0, 5000), false],
  ['AIFF with no COMM', () => Buffer.concat([Buffer.from('FORM'), be(32, 4), Buffer.from('AIFF')]), false],
];

describe('a plain WAV or AIFF read from its headers', () => {
  test.each(cases)('%s: the same facts as music-metadata', async (name, bytes, short) => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.wav`);
    const b = bytes();
    await writeFile(path, b);
    const fh = await open(path, 'r');
    const plain = await (async () => (await readPlainWave(fh, b.length)) ?? (await readPlainAiff(fh, b.length)))().finally(() => fh.close());
    expect(plain !== undefined).toBe(short);
    expect(await probeAudioFile(path, b.length)).toEqual(await probeWithMusicMetadata(path, b.length));
  });

  test('a title in LIST/INFO still comes from music-metadata', async () => {
    const path = join(dir, 'titled.wav');
    const b = layout({ seconds: 31 }, { after: [info('Evening Tide')] });
    await writeFile(path, b);
    expect((await probeAudioFile(path, b.length))?.title).toBe('Evening Tide');
  });

  test('a missing file: no facts, as before', async () => {
    expect(await probeAudioFile(join(dir, 'missing.wav'), 100)).toBeUndefined();
  });
});
