// The rules for cover art, in one place: which images an upload accepts (probe.ts reads the facts
// from the bytes, this decides) and what a release's cover must be at submit (Apple Music's and
// Spotify's artwork specifications: square, at least 3000 × 3000 px, RGB, JPEG or PNG). Pure: the
// service runs it at upload and at submit, the CLI offline (`artwork check`, before an upload).
import type { ArtworkColorSpace, ArtworkFormat } from '../contract/common.js';
import type { ErrorCode } from '../contract/errors.js';
import { artworkMaxBytes, artworkMaxPixels } from '../contract/routes.js';

export { artworkMaxBytes, artworkMaxPixels };

export const MIN_ARTWORK_PX = 3000;
export const ACCEPTED_ARTWORK_FORMATS: readonly ArtworkFormat[] = ['jpg', 'png'];

/** What the bytes say (probe.ts), never what a client declared. */
export interface ArtworkFacts {
  format: ArtworkFormat;
  width: number;
  height: number;
  color_space: ArtworkColorSpace;
  bit_depth: number;
  icc_profile: string | null;
  progressive: boolean;
}

export type ArtworkRefusalCode = Extract<ErrorCode, `artwork_${string}` | 'payload_too_large'>;

/** Why an upload is refused: a file that could never pass, whatever else changes. */
export interface ArtworkRefusal {
  code: ArtworkRefusalCode;
  message: string;
}

/** A submit finding about the cover: the code, the fact and the fix, in words. */
export interface ArtworkProblem {
  code: string;
  severity: 'error' | 'warning';
  message: string;
}

const FORMAT_NAMES: Record<ArtworkFormat, string> = { jpg: 'JPEG', png: 'PNG', gif: 'GIF', webp: 'WebP', tiff: 'TIFF' };
const SPACE_NAMES: Record<ArtworkColorSpace, string> = { rgb: 'RGB', cmyk: 'CMYK', grayscale: 'grayscale' };

export const formatName = (f: ArtworkFormat): string => FORMAT_NAMES[f];
const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MiB`;

export const refusals = {
  unreadable: (what: string): ArtworkRefusal => ({ code: 'artwork_unreadable', message: `${what}; upload a JPEG or PNG image` }),
  animated: (frames: number): ArtworkRefusal => ({
    code: 'artwork_animated',
    message: `the image is animated (${frames} frames); a cover is one still image: export one frame as JPEG or PNG`,
  }),
  tooManyPixels: (width: number, height: number): ArtworkRefusal => ({
    code: 'artwork_too_many_pixels',
    message: `the image is ${width}×${height} px, over the ${artworkMaxPixels / 1e6} megapixel limit; export it smaller (3000×3000 px is enough)`,
  }),
  tooLarge: (bytes: number): ArtworkRefusal => ({
    code: 'payload_too_large',
    message: `the file is ${mib(bytes)}, over the ${mib(artworkMaxBytes)} limit for a cover; export it again (3000×3000 px JPEG is a few MiB)`,
  }),
} as const;

/** The submit rules over a cover's facts read from its bytes, in the order they are reported. */
export function artworkProblems(a: Pick<ArtworkFacts, 'format' | 'width' | 'height' | 'color_space'> & { bit_depth?: number | null }): ArtworkProblem[] {
  const out: ArtworkProblem[] = [];
  const size = `${a.width}×${a.height} px`;
  if (a.width !== a.height) out.push({ code: 'artwork_not_square', severity: 'error', message: `${size}: a cover must be square; crop it to a square` });
  if (Math.min(a.width, a.height) < MIN_ARTWORK_PX) {
    out.push({
      code: 'artwork_too_small',
      severity: 'error',
      message: `${size}: a cover must be at least ${MIN_ARTWORK_PX}×${MIN_ARTWORK_PX} px; export it from the original at that size (not upscaled)`,
    });
  }
  if (!ACCEPTED_ARTWORK_FORMATS.includes(a.format)) {
    out.push({ code: 'artwork_format', severity: 'error', message: `${FORMAT_NAMES[a.format]}: export it as JPEG or PNG` });
  }
  if (a.color_space !== 'rgb') {
    out.push({ code: 'artwork_color_space', severity: 'error', message: `${SPACE_NAMES[a.color_space]}: export it as RGB` });
  }
  if (a.bit_depth != null && a.bit_depth > 8) {
    out.push({
      code: 'artwork_bit_depth',
      severity: 'warning',
      message: `${a.bit_depth} bits per channel: some stores take only 8; export it with 8 bits per channel`,
    });
  }
  return out;
}

/** A cover declared by URL (older clients): the service never saw its bytes. */
export const NOT_VERIFIED: ArtworkProblem = {
  code: 'artwork_not_verified',
  severity: 'warning',
  message:
    "cover not verified: it was declared by URL, so its size, format and colours are the client's word; upload the file (reldist release edit ID --artwork FILE)",
};

/** The facts in words, for `artwork check` and the upload report: "3000×3000 px JPEG, RGB, 8 bit, sRGB IEC61966-2.1". */
export function describeArtwork(a: ArtworkFacts): string {
  const parts = [`${a.width}×${a.height} px ${FORMAT_NAMES[a.format]}`, SPACE_NAMES[a.color_space], `${a.bit_depth} bit`];
  if (a.progressive) parts.push('progressive');
  parts.push(a.icc_profile ? `ICC ${a.icc_profile}` : 'no ICC profile');
  return parts.join(', ');
}
