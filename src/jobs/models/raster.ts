/** Decoding and resampling images with sharp into plain RGBA rasters the models work on. */
import sharp, { type Metadata } from 'sharp';
import { ModelInputError } from './model-error.ts';

/** 8-bit RGBA pixels, row by row from the top-left corner. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The formats accepted as model input. */
export const ACCEPTED_IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'] as const;

/** The default bound on decoded pixels (width x height of the source image). */
export const DEFAULT_MAX_PIXELS = 40_000_000;

/** Decodes `bytes` (EXIF orientation applied) and shrinks it to fit `maxSide`, never enlarging. */
export async function decodeImage(bytes: Uint8Array, maxSide: number, maxPixels = DEFAULT_MAX_PIXELS): Promise<RgbaImage> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ModelInputError('invalid_image', `the input is not a readable image (${(err as Error).message})`);
  }
  if (!meta.format || !(ACCEPTED_IMAGE_FORMATS as readonly string[]).includes(meta.format)) {
    throw new ModelInputError('unsupported_image', `image format "${meta.format ?? 'unknown'}" is not accepted; use ${ACCEPTED_IMAGE_FORMATS.join(', ')}`);
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > maxPixels) {
    throw new ModelInputError('image_too_large', `the image has ${pixels} pixels (${meta.width}x${meta.height}); the limit is ${maxPixels}`);
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (err) {
    throw new ModelInputError('invalid_image', `the image could not be decoded (${(err as Error).message})`);
  }
}

/** `image` shrunk to fit `maxSide` (unchanged when it already fits). */
export async function fitRaster(image: RgbaImage, maxSide: number): Promise<RgbaImage> {
  if (image.width <= maxSide && image.height <= maxSide) return image;
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize({ width: maxSide, height: maxSide, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** True when some pixel is not fully opaque. */
export function hasTransparency(image: RgbaImage): boolean {
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! < 255) return true;
  return false;
}

/** An encoded texture: PNG when `keepAlpha` and the image has transparency, else JPEG (transparency flattened onto white). */
export async function encodeTexture(image: RgbaImage, keepAlpha: boolean): Promise<{ bytes: Uint8Array; mimeType: 'image/png' | 'image/jpeg'; alpha: boolean }> {
  const alpha = keepAlpha && hasTransparency(image);
  const input = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize({ width: nearestPowerOfTwo(image.width), height: nearestPowerOfTwo(image.height), fit: 'fill' });
  const buffer = alpha
    ? await input.png({ compressionLevel: 9, adaptiveFiltering: false }).toBuffer()
    : await input.flatten({ background: '#ffffff' }).jpeg({ quality: 88, chromaSubsampling: '4:4:4' }).toBuffer();
  return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), mimeType: alpha ? 'image/png' : 'image/jpeg', alpha };
}

/** Relative luminance in 0..1 of each pixel (Rec. 709 weights on the sRGB values), blended by alpha over `background`. */
export function luminance(image: RgbaImage, background = 0): Float32Array {
  const out = new Float32Array(image.width * image.height);
  const d = image.data;
  for (let p = 0, i = 0; p < out.length; p++, i += 4) {
    const y = (0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!) / 255;
    const a = d[i + 3]! / 255;
    out[p] = y * a + background * (1 - a);
  }
  return out;
}

/** The power of two nearest to `n` (at least 1), so that textures can be mipmapped everywhere. */
export function nearestPowerOfTwo(n: number): number {
  return 2 ** Math.max(0, Math.round(Math.log2(n)));
}
