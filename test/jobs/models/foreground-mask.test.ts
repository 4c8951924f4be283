import { describe, expect, it } from 'vitest';
import { borderColour, foregroundMask, smoothMask } from '../../../src/jobs/models/foreground-mask.ts';
import type { RgbaImage } from '../../../src/jobs/models/raster.ts';

/** A width x height image whose pixel (x, y) is `pixel(x, y)`. */
function image(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { width, height, data };
}
const rows = (mask: Float32Array, width: number) => Array.from({ length: mask.length / width }, (_, y) => [...mask.subarray(y * width, (y + 1) * width)].join(''));

describe('foregroundMask', () => {
  it('uses the alpha cut-out when enough of the image is transparent', () => {
    const cutout = image(4, 3, (x) => (x >= 2 ? [0, 0, 0, 255] : [255, 255, 255, 0]));
    expect(rows(foregroundMask(cutout, 48), 4)).toEqual(['0011', '0011', '0011']);
  });

  it('otherwise keeps what differs from the border colour by more than the distance', () => {
    const disc = image(5, 5, (x, y) => (x === 2 && y === 2 ? [200, 40, 40, 255] : x === 1 && y === 1 ? [250, 250, 230, 255] : [255, 255, 255, 255]));
    expect(rows(foregroundMask(disc, 48), 5)).toEqual(['00000', '00000', '00100', '00000', '00000']);
    expect(rows(foregroundMask(disc, 10), 5)).toEqual(['00000', '01000', '00100', '00000', '00000']);
  });

  it('ignores a few transparent pixels (under half a percent) and falls back to the border colour', () => {
    const mostlyOpaque = image(20, 20, (x, y) => (x === 0 && y === 0 ? [255, 255, 255, 0] : x > 8 && x < 12 && y > 8 && y < 12 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const mask = foregroundMask(mostlyOpaque, 48);
    expect(mask.reduce((a, b) => a + b, 0)).toBe(9);
    expect(mask[0]).toBe(0);
  });
});

describe('borderColour', () => {
  it('is the per-channel median of the outermost pixels', () => {
    // Border of a 3 x 3 image: 8 pixels, 5 of them (10, 20, 30), 3 of them (200, 200, 200); the centre does not count.
    const img = image(3, 3, (x, y) => (x === 1 && y === 1 ? [0, 0, 0, 255] : x + y < 2 ? [200, 200, 200, 255] : [10, 20, 30, 255]));
    expect(borderColour(img)).toEqual([10, 20, 30]);
  });

  it('works on a single row or column', () => {
    expect(borderColour(image(3, 1, (x) => [x * 10, 0, 0, 255]))).toEqual([10, 0, 0]);
    expect(borderColour(image(1, 1, () => [7, 8, 9, 255]))).toEqual([7, 8, 9]);
  });
});

describe('smoothMask', () => {
  it('averages each pixel over the neighbours it has', () => {
    const mask = new Float32Array([1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const out = smoothMask(mask, 3, 3);
    expect(out[0]).toBeCloseTo(1 / 4);
    expect(out[1]).toBeCloseTo(1 / 6);
    expect(out[4]).toBeCloseTo(1 / 9);
    expect(out[8]).toBe(0);
    expect(smoothMask(new Float32Array(9).fill(1), 3, 3)).toEqual(new Float32Array(9).fill(1));
  });
});
