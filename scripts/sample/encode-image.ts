/** Raw RGB pixels to JPEG or PNG bytes with sharp; the same pixels and sharp version give the same bytes. */
import sharp from 'sharp';

/** An sRGB picture as raw RGB bytes. */
export interface RawImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** Options of `encodeImage`. */
export interface EncodeOptions {
  format: 'jpg' | 'png';
  /** JPEG quality, 1-100. */
  quality?: number;
  /** Downscale to this width (antialiasing a supersampled render). */
  width?: number;
  /** PNG: quantise to a palette of this many colours (smaller files). */
  colors?: number;
}

/** Encodes raw pixels, optionally downscaled, without metadata. */
export async function encodeImage(image: RawImage, options: EncodeOptions): Promise<Uint8Array> {
  let pipeline = sharp(Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  });
  if (options.width && options.width !== image.width) pipeline = pipeline.resize({ width: options.width, kernel: 'lanczos3' });
  const out =
    options.format === 'jpg'
      ? await pipeline.jpeg({ quality: options.quality ?? 80, mozjpeg: true }).toBuffer()
      : await pipeline
          .png(options.colors ? { palette: true, colors: options.colors, compressionLevel: 9, effort: 10 } : { compressionLevel: 9 })
          .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** A texture for a glTF file: a baseline JPEG, which every glTF loader reads. */
export async function encodeTextureJpeg(image: RawImage, quality = 82): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .jpeg({ quality, progressive: false, optimiseCoding: true })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
