/**
 * When an image is its own catalog thumbnail: a small, whole, still, upright JPEG, PNG or WebP in sRGB or grey that fits
 * a card's picture box, is shown as published (the version's own file) instead of being decoded and encoded again as WebP.
 * Any doubt makes a WebP as for any other image: what is shown as it is must show in every browser as its WebP would.
 */
import { ascii, pngChunks, readUint32, type ImageHeader } from '@aso-registry/core/format/image-header';

/** Images of at most this many bytes may be shown as they are: about what a WebP thumbnail 320 pixels wide weighs. */
export const AS_IS_MAX_BYTES = 16 * 1024;

/** The formats every browser that runs the viewer shows (AVIF is left to the WebP path). */
const FORMATS = new Set(['jpeg', 'png', 'webp']);

/** The colour spaces shown the same everywhere: a CMYK JPEG, say, is not. */
const SPACES = new Set(['srgb', 'b-w']);

/** Whether the image `bytes`, whose header sharp read as `header`, is shown as it is for a thumbnail that fits `box`. */
export function showAsIs(bytes: Uint8Array, header: ImageHeader, box: { width: number; height: number }): boolean {
  const { format, width, height, orientation, pages, space } = header;
  if (bytes.length > AS_IS_MAX_BYTES || !format || !FORMATS.has(format) || !width || !height || width > box.width || height > box.height) return false;
  if ((orientation !== undefined && orientation !== 1) || (pages !== undefined && pages > 1) || !space || !SPACES.has(space)) return false;
  if (format !== 'png') return endsWhole(bytes, format);
  // One walk of the chunks (each CRC computed once) answers both questions.
  const types = wholePngChunkTypes(bytes);
  return types !== null && !animatedChunks(types);
}

/**
 * Whether an image's bytes are whole as far as can be told without decoding them, so that a truncated or damaged file
 * whose header still reads is not shown: a JPEG ends with its end-of-image marker; a PNG's chunks each hold their
 * length and CRC and run to its IEND chunk at the very end; a WebP's RIFF header gives its length.
 */
export function endsWhole(bytes: Uint8Array, format: string): boolean {
  const n = bytes.length;
  if (format === 'jpeg') return n > 4 && bytes[n - 2] === 0xff && bytes[n - 1] === 0xd9;
  if (format === 'png') return wholePngChunkTypes(bytes) !== null;
  if (format === 'webp') return n > 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP' && readUint32(bytes, 4, true) + 8 === n;
  return false;
}

/** Whether a PNG is an APNG: an `acTL` chunk before its first `IDAT` (browsers animate it; its WebP would be still). */
export function isAnimatedPng(bytes: Uint8Array): boolean {
  return animatedChunks(wholePngChunkTypes(bytes) ?? []);
}

/** Whether a PNG's chunk types hold an `acTL` before the first `IDAT`. */
function animatedChunks(types: string[]): boolean {
  const acTL = types.indexOf('acTL');
  return acTL >= 0 && acTL < types.indexOf('IDAT');
}

/** The types of a PNG's chunks in order, when each is whole and they run to an IEND chunk at the very end; else null. */
function wholePngChunkTypes(bytes: Uint8Array): string[] | null {
  const read = pngChunks(bytes, 'IEND');
  return read && read.end === bytes.length ? read.chunks.map((c) => c.type) : null;
}
