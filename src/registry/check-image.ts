/**
 * The registry's image rule: a representation whose media type `browser-image` shows must hold an image of that very
 * format that decodes in full, so that a browser and the thumbnail step show it. The header is read from the bytes in
 * memory for the plain cases (core/format/image-header.ts, see docs/decisions/0002-image-headers-from-bytes.md), by
 * sharp otherwise; then the image is decoded (decode-image.ts). The header read is kept with the file, so that the
 * thumbnail step need not read it again.
 */
import sharp from 'sharp';
import { RUNTIMES } from '@aso-registry/core/format/compatibility';
import { readImageHeader, type ImageHeader } from '@aso-registry/core/format/image-header';
import { imageStructureProblem } from '@aso-registry/core/format/image-structure';
import type { FileDigest } from '../io/hash-file.ts';
import { decodeProblem } from './decode-image.ts';

export type { ImageHeader } from '@aso-registry/core/format/image-header';

/** sharp's name (and, for HEIF, the compression) of the format each image media type must hold. */
const EXPECTED: Record<string, { format: string; compression?: string; name: string }> = {
  'image/png': { format: 'png', name: 'PNG' },
  'image/jpeg': { format: 'jpeg', name: 'JPEG' },
  'image/webp': { format: 'webp', name: 'WebP' },
  'image/avif': { format: 'heif', compression: 'av1', name: 'AVIF' },
};

/** The media types the image runtime shows, each of which `imageProblem` checks. */
const IMAGE_MEDIA_TYPES: readonly string[] = RUNTIMES.find((r) => r.id === 'browser-image')?.mediaTypes ?? [];

/** True when a representation is an image that must pass `imageProblem`. */
export function isImage(rep: { mediaType: string }): boolean {
  return IMAGE_MEDIA_TYPES.includes(rep.mediaType) && rep.mediaType in EXPECTED;
}

/** What the image rule says of a file: why it is not an image of its media type that decodes, or the header it read. */
export interface ImageCheck {
  problem: string | null;
  /** The header, when the file is an image of its media type (null for a media type the rule does not check). */
  header: ImageHeader | null;
}

/** The fields of sharp's metadata that {@link ImageHeader} keeps (sharp's own object holds EXIF and ICC bytes too). */
const HEADER_FIELDS = ['format', 'compression', 'width', 'height', 'orientation', 'pages', 'space'] as const;

/** Reads the header of an image (a file's path, or its bytes), judges it against `mediaType` and decodes the image. */
export async function checkImage(image: string | Uint8Array, mediaType: string): Promise<ImageCheck> {
  const expected = EXPECTED[mediaType];
  if (!expected) return { problem: null, header: null };
  let meta: ImageHeader;
  try {
    meta = (typeof image === 'string' ? null : readImageHeader(image)) ?? (await sharp(image).metadata());
  } catch (error) {
    // A file of the declared format cut short inside the part a header reader needs (a WebP's RIFF length) is named so.
    const cut = typeof image === 'string' ? null : imageStructureProblem(image, expected.format);
    if (cut) return { problem: `does not decode as ${mediaType}: ${cut}`, header: null };
    return { problem: `is declared ${mediaType} but is not an image that can be read: ${(error as Error).message}`, header: null };
  }
  const found = meta.format === 'heif' ? `HEIF (${meta.compression ?? 'unknown compression'})` : String(meta.format).toUpperCase();
  if (meta.format !== expected.format || (expected.compression && meta.compression !== expected.compression)) {
    return { problem: `is declared ${mediaType} but holds ${found}; save it as ${expected.name} or declare the media type of what it holds`, header: null };
  }
  if (!meta.width || !meta.height) return { problem: `is declared ${mediaType} but has no width and height`, header: null };
  const header: Record<string, unknown> = {};
  for (const field of HEADER_FIELDS) if (meta[field] !== undefined) header[field] = meta[field];
  const undecodable = await decodeProblem(image, header as ImageHeader);
  if (undecodable) return { problem: `does not decode as ${mediaType}: ${undecodable}`, header: null };
  return { problem: null, header: header as ImageHeader };
}

/** Why the image (a file's path, or its bytes) is not an image of `mediaType` that decodes, or null when it is one. */
export async function imageProblem(image: string | Uint8Array, mediaType: string): Promise<string | null> {
  return (await checkImage(image, mediaType)).problem;
}

/** `checkImage` of a file that was just hashed: the very bytes that were hashed when the hasher kept them, else the file. */
export function checkHashedImage(path: string, mediaType: string, digest: FileDigest): Promise<ImageCheck> {
  return checkImage(digest.bytes ?? path, mediaType);
}
