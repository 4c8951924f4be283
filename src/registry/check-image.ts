/**
 * The registry's image rule: a representation whose media type `browser-image` shows must hold an image of that very
 * format, so that a browser and the thumbnail step read it. sharp reads the header only; the pixels are not decoded.
 */
import sharp from 'sharp';
import { RUNTIMES } from '../core/compatibility.ts';
import type { FileDigest } from '../io/hash-file.ts';

/** sharp's name (and, for HEIF, the compression) of the format each image media type must hold. */
const EXPECTED: Record<string, { format: string; compression?: string; name: string }> = {
  'image/png': { format: 'png', name: 'PNG' },
  'image/jpeg': { format: 'jpeg', name: 'JPEG' },
  'image/webp': { format: 'webp', name: 'WebP' },
  'image/avif': { format: 'heif', compression: 'av1', name: 'AVIF' },
};

/** The media types the image runtime shows, each of which `imageProblem` checks. */
export const IMAGE_MEDIA_TYPES: readonly string[] = RUNTIMES.find((r) => r.id === 'browser-image')?.mediaTypes ?? [];

/** True when a representation is an image that must pass `imageProblem`. */
export function isImage(rep: { mediaType: string }): boolean {
  return IMAGE_MEDIA_TYPES.includes(rep.mediaType) && rep.mediaType in EXPECTED;
}

/** Why the image (a file's path, or its bytes) is not an image of `mediaType`, or null when its header says it is. */
export async function imageProblem(image: string | Uint8Array, mediaType: string): Promise<string | null> {
  const expected = EXPECTED[mediaType];
  if (!expected) return null;
  let meta: { format?: string; compression?: string; width?: number; height?: number };
  try {
    meta = await sharp(image).metadata();
  } catch (error) {
    return `is declared ${mediaType} but is not an image that can be read: ${(error as Error).message}`;
  }
  const found = meta.format === 'heif' ? `HEIF (${meta.compression ?? 'unknown compression'})` : String(meta.format).toUpperCase();
  if (meta.format !== expected.format || (expected.compression && meta.compression !== expected.compression)) {
    return `is declared ${mediaType} but holds ${found}; save it as ${expected.name} or declare the media type of what it holds`;
  }
  if (!meta.width || !meta.height) return `is declared ${mediaType} but has no width and height`;
  return null;
}

/** `imageProblem` of a file that was just hashed: the very bytes that were hashed when the hasher kept them, else the file. */
export function checkHashedImage(path: string, mediaType: string, digest: FileDigest): Promise<string | null> {
  return imageProblem(digest.bytes ?? path, mediaType);
}
