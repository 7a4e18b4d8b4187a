// Reads what a cover image really is, from its bytes (never its name or a declared type), with
// sharp (libvips), loaded on first use: only the artwork upload route, `artwork check` and the
// commands that upload a cover pay for it. The header first (format, size, frames, colour space,
// profile) without decoding; a file past the pixel limit is refused there, so a decompression
// bomb is never decoded (sharp's limitInputPixels says the same inside libvips). Then one decode
// at a reduced size (JPEG shrink-on-load; other formats streamed in strips), only to prove the
// file is whole: a truncated or corrupt file fails it.
import type { ArtworkColorSpace, ArtworkFormat } from '../contract/common.js';
import { iccProfileName } from './icc.js';
import { type ArtworkFacts, type ArtworkRefusal, artworkMaxPixels, refusals } from './rules.js';

export type ArtworkProbe = { ok: true; facts: ArtworkFacts } | { ok: false; refusal: ArtworkRefusal };

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | undefined;

/** sharp, loaded once; its libvips cache off (each file is read once) and one thread per call: the machine is shared. */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

const FORMATS: Record<string, ArtworkFormat> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp', tiff: 'tiff' };

/** libvips' interpretation to the contract's colour space; undefined for one a cover can never be (Lab, XYZ, multiband…). */
function colorSpaceOf(space: string | undefined): ArtworkColorSpace | undefined {
  switch (space) {
    case 'srgb':
    case 'rgb':
    case 'rgb16':
    case 'scrgb':
      return 'rgb';
    case 'cmyk':
      return 'cmyk';
    case 'b-w':
    case 'grey16':
      return 'grayscale';
    default:
      return undefined;
  }
}

const BIT_DEPTHS: Record<string, number> = { uchar: 8, char: 8, ushort: 16, short: 16, uint: 32, int: 32, float: 32, double: 64 };

/** Reads the image at `path` (a file, or its bytes); refuses what no cover can be: not an image, corrupt, animated, too many pixels. */
export async function probeArtwork(input: string | Buffer): Promise<ArtworkProbe> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: artworkMaxPixels, failOn: 'truncated', sequentialRead: true } as const;
  let meta: Awaited<ReturnType<ReturnType<Sharp>['metadata']>>;
  try {
    // Header only: limitInputPixels does not apply to metadata, the check below does.
    meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, refusal: refusals.unreadable('the file is not an image in any format we can read') };
  }
  const format = FORMATS[meta.format ?? ''];
  if (!format)
    return {
      ok: false,
      refusal: refusals.unreadable(
        `the file is ${meta.format ? `a ${meta.format.toUpperCase()} image` : 'not an image we can read'}, not a format a cover can be`,
      ),
    };
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) return { ok: false, refusal: refusals.unreadable('the image has no size in its header') };
  if (width * height > artworkMaxPixels) return { ok: false, refusal: refusals.tooManyPixels(width, height) };
  if ((meta.pages ?? 1) > 1 && (format === 'gif' || format === 'webp' || format === 'png')) return { ok: false, refusal: refusals.animated(meta.pages!) };
  const colorSpace = colorSpaceOf(meta.space);
  if (!colorSpace) return { ok: false, refusal: refusals.unreadable(`the image is in the ${meta.space ?? 'unknown'} colour space, which no store takes`) };
  try {
    await sharp(input, options).resize(256, 256, { fit: 'inside' }).raw().toBuffer();
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0]!.replace(/^Vips\w*:\s*/, '') : String(e);
    return { ok: false, refusal: refusals.unreadable(`the image is damaged or cut short (${why})`) };
  }
  return {
    ok: true,
    facts: {
      format,
      width,
      height,
      color_space: colorSpace,
      bit_depth: meta.bitsPerSample && meta.bitsPerSample >= 8 ? meta.bitsPerSample : (BIT_DEPTHS[meta.depth ?? ''] ?? 8),
      icc_profile: meta.icc ? iccProfileName(meta.icc) : null,
      progressive: meta.isProgressive === true,
    },
  };
}
