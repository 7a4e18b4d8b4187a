// Real images for the cover tests, made with sharp (libvips) itself: never committed, built once
// per test file. `bomb` is a PNG whose header claims 50000 × 50000 px (7.5 GB decoded) over a few
// rows of real compressed data: refused from its header, it must never be decoded.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const BLUE = { r: 51, g: 102, b: 153 };
const canvas = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: BLUE } });

export interface TestImages {
  good: Buffer;
  tooSmall: Buffer;
  notSquare: Buffer;
  cmyk: Buffer;
  grayscale: Buffer;
  png16: Buffer;
  progressive: Buffer;
  /** A PNG (to be named .jpg): read as what its bytes are. */
  pngBytes: Buffer;
  truncated: Buffer;
  animated: Buffer;
  bomb: Buffer;
  withProfile: Buffer;
  notAnImage: Buffer;
}

let made: Promise<TestImages> | undefined;

export function testImages(): Promise<TestImages> {
  made ??= (async () => {
    const good = await canvas(3000, 3000).jpeg().toBuffer();
    const frame = (c: number) =>
      sharp({ create: { width: 64, height: 64, channels: 3, background: { r: c, g: c, b: c } } })
        .png()
        .toBuffer();
    return {
      good,
      tooSmall: await canvas(1400, 1400).jpeg().toBuffer(),
      notSquare: await canvas(3000, 2000).jpeg().toBuffer(),
      cmyk: await canvas(3000, 3000).toColourspace('cmyk').jpeg().toBuffer(),
      grayscale: await canvas(3000, 3000).toColourspace('b-w').png().toBuffer(),
      png16: await canvas(3000, 3000).toColourspace('rgb16').png().toBuffer(),
      progressive: await canvas(3000, 3000).jpeg({ progressive: true }).toBuffer(),
      pngBytes: await canvas(3000, 3000).png().toBuffer(),
      truncated: good.subarray(0, good.length >> 1),
      animated: await sharp([await frame(0), await frame(255)], { join: { animated: true } })
        .gif()
        .toBuffer(),
      bomb: pngBomb(50_000, 50_000),
      withProfile: await canvas(3000, 3000).withIccProfile('p3').jpeg().toBuffer(),
      notAnImage: Buffer.from('this is a text file, not an image\n'),
    };
  })();
  return made;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** An 8-bit RGB PNG header of `width` × `height` and 16 rows of black: the rest is missing. */
function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // RGB
  const rows = deflateSync(Buffer.alloc(16 * (1 + width * 3)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
