/** Which pixels of an image are foreground: by alpha when the image has a cut-out, else by distance from the border colour. */
import type { RgbaImage } from './raster.ts';

/** Share of pixels that must be transparent before alpha is trusted as the cut-out. */
const ALPHA_SHARE = 0.005;

/** 1 for foreground, 0 for background, per pixel. */
export function foregroundMask(image: RgbaImage, colorDistance: number): Float32Array {
  const { width, height, data } = image;
  const mask = new Float32Array(width * height);
  let transparent = 0;
  for (let p = 0; p < mask.length; p++) if (data[p * 4 + 3]! < 128) transparent++;
  if (transparent > mask.length * ALPHA_SHARE) {
    for (let p = 0; p < mask.length; p++) mask[p] = data[p * 4 + 3]! >= 128 ? 1 : 0;
    return mask;
  }
  const [br, bg, bb] = borderColour(image);
  const limit = colorDistance * colorDistance;
  for (let p = 0; p < mask.length; p++) {
    const dr = data[p * 4]! - br, dg = data[p * 4 + 1]! - bg, db = data[p * 4 + 2]! - bb;
    mask[p] = dr * dr + dg * dg + db * db > limit ? 1 : 0;
  }
  return mask;
}

/** The per-channel median colour of the outermost pixels. */
export function borderColour(image: RgbaImage): [number, number, number] {
  const { width, height, data } = image;
  const channels: number[][] = [[], [], []];
  const take = (x: number, y: number): void => {
    for (let c = 0; c < 3; c++) channels[c]!.push(data[(y * width + x) * 4 + c]!);
  };
  for (let x = 0; x < width; x++) {
    take(x, 0);
    if (height > 1) take(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    take(0, y);
    if (width > 1) take(width - 1, y);
  }
  return channels.map((values) => {
    values.sort((a, b) => a - b);
    return values[values.length >> 1]!;
  }) as [number, number, number];
}

/** `mask` averaged over each pixel's 3 x 3 neighbourhood, so that traced outlines come out smooth. */
export function smoothMask(mask: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0, n = 0;
      for (let j = Math.max(0, y - 1); j <= Math.min(height - 1, y + 1); j++) {
        for (let i = Math.max(0, x - 1); i <= Math.min(width - 1, x + 1); i++) {
          sum += mask[j * width + i]!;
          n++;
        }
      }
      out[y * width + x] = sum / n;
    }
  }
  return out;
}
