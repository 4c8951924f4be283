/**
 * Whether a JPEG, PNG or WebP runs whole to the end of its image data, read from its bytes without decoding a pixel: a
 * JPEG's segments and entropy-coded scans to its end-of-image marker, a PNG's chunks (each length and CRC) to its IEND
 * chunk, a WebP's RIFF length and chunks. A decoder finishes a PNG at its last row and never reads the chunks after it,
 * so a PNG cut after its image data decodes; this walk is what refuses it, and it names why a file cut short fails to
 * decode. What it cannot see (damaged compressed data whose structure holds) is left to the decoder. Bytes after the end
 * of the image (a JPEG's trailer, data past IEND or the RIFF length) are not its concern: decoders and browsers ignore
 * them.
 */
import { ascii, crc32, readUint32 } from './image-header.ts';

/** The problem of a file that ends before its image data does. */
export const TRUNCATED = 'the file ends before the image data does (truncated?)';

/**
 * Why the image `bytes` of `format` (sharp's name: `jpeg`, `png`, `webp`) does not run whole to the end of its image
 * data, or null when it does, when the bytes do not start as that format does, for another format, or when its
 * structure is one this walk leaves to the decoder.
 */
export function imageStructureProblem(bytes: Uint8Array, format: string): string | null {
  if (format === 'jpeg' && bytes.length > 2 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegProblem(bytes);
  if (format === 'png' && bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngProblem(bytes);
  if (format === 'webp' && bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpProblem(bytes);
  return null;
}

/** JPEG-LS frames (SOF55) and their parameters (LSE): their scans stuff bytes otherwise, so the walk stops there. */
const JPEG_LS = new Set([0xf7, 0xf8]);

/**
 * A JPEG walked marker by marker from its start-of-image to its end-of-image marker: each segment's length within the
 * bytes, and each scan's entropy-coded data up to the next marker (a 0xFF byte followed by 0x00 is a stuffed 0xFF, one
 * followed by 0xD0-0xD7 a restart marker, more 0xFF bytes are fill).
 */
function jpegProblem(bytes: Uint8Array): string | null {
  const n = bytes.length;
  let at = 2;
  for (;;) {
    if (at >= n) return TRUNCATED;
    if (bytes[at] !== 0xff) return null; // bytes where a marker must be: the decoder says what they are
    while (at < n && bytes[at] === 0xff) at++;
    if (at >= n) return TRUNCATED;
    const marker = bytes[at++]!;
    if (marker === 0xd9) return null; // end of image
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // markers without a segment
    if (marker === 0x00 || marker === 0xd8 || JPEG_LS.has(marker)) return null;
    if (at + 2 > n) return TRUNCATED;
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (length < 2) return null;
    if (at + length > n) return TRUNCATED;
    at += length;
    if (marker !== 0xda) continue;
    // A scan: its entropy-coded data runs to the next marker.
    for (;;) {
      const ff = bytes.indexOf(0xff, at);
      if (ff < 0 || ff + 1 >= n) return TRUNCATED;
      const next = bytes[ff + 1]!;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
      else if (next === 0xff) at = ff + 1;
      else {
        at = ff;
        break;
      }
    }
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's chunks walked from its signature to its IEND chunk, each one's length within the bytes and its CRC right. */
function pngProblem(bytes: Uint8Array): string | null {
  let at = 8;
  let imageData = false;
  for (;;) {
    if (at + 8 > bytes.length) return imageData ? 'the file ends before its IEND chunk, which closes every PNG (truncated?)' : TRUNCATED;
    const length = readUint32(bytes, at, false);
    const type = ascii(bytes, at + 4, 4);
    if (length > 0x7fffffff) return `its chunk at byte ${at} gives a length over 2^31-1 (the bytes are damaged)`;
    const end = at + 8 + length;
    if (end + 4 > bytes.length) return type === 'IEND' ? 'the file ends inside its IEND chunk, which closes every PNG (truncated?)' : TRUNCATED;
    if (crc32(bytes.subarray(at + 4, end)) !== readUint32(bytes, end, false)) {
      return `its ${JSON.stringify(type)} chunk at byte ${at} fails its CRC check (the bytes are damaged)`;
    }
    if (type === 'IEND') return null;
    if (type === 'IDAT') imageData = true;
    at = end + 4;
  }
}

/** A WebP's RIFF container: the length its header gives within the bytes, and each chunk's length within that. */
function webpProblem(bytes: Uint8Array): string | null {
  const end = readUint32(bytes, 4, true) + 8;
  if (end > bytes.length) return TRUNCATED;
  let at = 12;
  while (at < end) {
    if (at + 8 > end) return `its RIFF container ends inside the header of a chunk at byte ${at} (the bytes are damaged)`;
    const length = readUint32(bytes, at + 4, true);
    if (at + 8 + length > end) return `its ${JSON.stringify(ascii(bytes, at, 4))} chunk at byte ${at} runs past the end of its RIFF container (the bytes are damaged)`;
    at += 8 + length + (length & 1);
  }
  return null;
}
