/** Reads an image's header (not its pixels) and checks it against the service limits. */
import sharp, { type Metadata } from 'sharp';
import { ACCEPTED_IMAGE_FORMATS } from '../models/raster.ts';

/** Why an image is refused: the HTTP status for an upload, and the error code for both uploads and fetched images. */
export class ImageRejection extends Error {
  constructor(
    readonly status: 413 | 415,
    readonly code: 'image_too_large' | 'unsupported_image',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejection';
  }
}

/** The size limits of input images. */
export interface ImageLimits {
  maxImageBytes: number;
  maxImagePixels: number;
}

/** An image in a file, read from disk rather than held in memory. */
interface ImageFile {
  path: string;
  byteLength: number;
}

/** Format and size of an accepted image (bytes, or a file); throws `ImageRejection` otherwise. */
export async function checkImage(image: Uint8Array | ImageFile, limits: ImageLimits): Promise<{ format: string; width: number; height: number }> {
  const byteLength = image instanceof Uint8Array ? image.length : image.byteLength;
  if (byteLength > limits.maxImageBytes) {
    throw new ImageRejection(413, 'image_too_large', `the image has ${byteLength} bytes; the limit is ${limits.maxImageBytes}`);
  }
  let meta: Metadata;
  try {
    meta = await sharp(image instanceof Uint8Array ? image : image.path, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejection(415, 'unsupported_image', `the image is not in a readable format; send one of ${ACCEPTED_IMAGE_FORMATS.join(', ')}`);
  }
  if (!meta.format || !(ACCEPTED_IMAGE_FORMATS as readonly string[]).includes(meta.format)) {
    throw new ImageRejection(415, 'unsupported_image', `image format "${meta.format ?? 'unknown'}" is not accepted; send one of ${ACCEPTED_IMAGE_FORMATS.join(', ')}`);
  }
  const width = meta.width ?? 0, height = meta.height ?? 0;
  if (width * height > limits.maxImagePixels) {
    throw new ImageRejection(413, 'image_too_large', `the image has ${width * height} pixels (${width}x${height}); the limit is ${limits.maxImagePixels}`);
  }
  return { format: meta.format, width, height };
}
