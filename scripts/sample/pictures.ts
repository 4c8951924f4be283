/** Reference pictures (a studio shot, JPEG) and previews (a clean three-quarter view, PNG or JPEG) of a model. */
import { encodeImage, type EncodeOptions } from './encode-image.ts';
import type { Model, Vec3 } from './geometry.ts';
import { frameCamera, renderModel } from './render.ts';

/** The bytes of an encoded picture and its size in pixels. */
export interface Picture {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** Renders are drawn this many times larger, then scaled down (antialiasing). */
const SUPERSAMPLE = 2;

const studio = (x: number, y: number, w: number, h: number): Vec3 => {
  const t = y / h;
  const dx = x / w - 0.5;
  const dy = t - 0.45;
  const vignette = 1 - 0.35 * (dx * dx + dy * dy);
  return [(236 - 30 * t) * vignette, (230 - 32 * t) * vignette, (221 - 34 * t) * vignette];
};

const plain = (_x: number, y: number, _w: number, h: number): Vec3 => {
  const t = y / h;
  return [244 - 8 * t, 242 - 8 * t, 238 - 8 * t];
};

/** Options of `picture`. */
interface PictureOptions {
  width: number;
  height: number;
  azimuth: number;
  elevation: number;
  backdrop: 'studio' | 'plain';
  encode: Omit<EncodeOptions, 'width'>;
}

/** Renders and encodes one picture of a model. */
async function picture(model: Model, options: PictureOptions): Promise<Picture> {
  const width = options.width * SUPERSAMPLE;
  const height = options.height * SUPERSAMPLE;
  const camera = frameCamera(model, options.azimuth, options.elevation, width / height);
  const raw = renderModel(model, {
    width,
    height,
    camera,
    background: options.backdrop === 'studio' ? studio : plain,
    shadow: options.backdrop === 'studio' ? 0.5 : 0.3,
  });
  const bytes = await encodeImage(raw, { ...options.encode, width: options.width });
  return { bytes, width: options.width, height: options.height };
}

/** The reference image of a version: a front-ish studio shot, 512 x 384 JPEG. */
export function referencePicture(model: Model, azimuth = 20): Promise<Picture> {
  return picture(model, { width: 512, height: 384, azimuth, elevation: 12, backdrop: 'studio', encode: { format: 'jpg', quality: 78 } });
}

/** The preview of a version: a three-quarter view on a plain backdrop, 400 x 300. */
export function previewPicture(model: Model, format: 'png' | 'jpg', azimuth = -35): Promise<Picture> {
  const encode: PictureOptions['encode'] = format === 'png' ? { format, colors: 96 } : { format, quality: 80 };
  return picture(model, { width: 400, height: 300, azimuth, elevation: 24, backdrop: 'plain', encode });
}
