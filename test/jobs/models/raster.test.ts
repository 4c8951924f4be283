import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ModelInputError } from '../../../src/jobs/models/model-error.ts';
import { decodeImage, encodeTexture, fitRaster, hasTransparency, luminance, nearestPowerOfTwo, type RgbaImage } from '../../../src/jobs/models/raster.ts';

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 4, background } });
const raw = (width: number, height: number, rgba: [number, number, number, number]): RgbaImage => {
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) data.set(rgba, p * 4);
  return { width, height, data };
};

/** The ModelInputError a decode ends with. */
async function refusal(bytes: Uint8Array, maxSide = 64, maxPixels?: number): Promise<ModelInputError> {
  const error = await decodeImage(bytes, maxSide, maxPixels).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ModelInputError);
  return error as ModelInputError;
}

describe('decodeImage', () => {
  it('decodes to RGBA and shrinks to fit the longest side, never enlarging', async () => {
    const png = new Uint8Array(await solid(80, 40, '#ff000080').png().toBuffer());
    const small = await decodeImage(png, 20);
    expect([small.width, small.height, small.data.length]).toEqual([20, 10, 20 * 10 * 4]);
    expect([...small.data.subarray(0, 4)]).toEqual([255, 0, 0, 128]);
    const same = await decodeImage(png, 1000);
    expect([same.width, same.height]).toEqual([80, 40]);
  });

  it('adds an opaque alpha channel to an image without one', async () => {
    const jpeg = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#808080' } }).jpeg().toBuffer());
    const img = await decodeImage(jpeg, 64);
    expect(img.data[3]).toBe(255);
    expect(hasTransparency(img)).toBe(false);
  });

  it('applies the EXIF orientation', async () => {
    // Stored 40 x 20, with orientation 6 (rotate 90 degrees clockwise to display): the model sees 20 x 40.
    const rotated = new Uint8Array(await solid(40, 20, '#00ff00').jpeg().withMetadata({ orientation: 6 }).toBuffer());
    const img = await decodeImage(rotated, 64);
    expect([img.width, img.height]).toEqual([20, 40]);
  });

  it('refuses bytes that are not an image, a format it does not take, and too many pixels', async () => {
    expect(await refusal(new TextEncoder().encode('not an image'))).toMatchObject({ code: 'invalid_image' });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    expect(await refusal(svg)).toMatchObject({ code: 'unsupported_image', message: 'image format "svg" is not accepted; use jpeg, png, webp, avif, gif, tiff' });
    const png = new Uint8Array(await solid(30, 20, '#000000ff').png().toBuffer());
    expect(await refusal(png, 64, 599)).toMatchObject({ code: 'image_too_large', message: 'the image has 600 pixels (30x20); the limit is 599' });
    expect((await decodeImage(png, 64, 600)).width).toBe(30);
  });

  it('refuses an image whose pixels are broken although its header reads', async () => {
    const png = Buffer.from(await solid(64, 64, '#123456ff').png().toBuffer());
    const truncated = new Uint8Array(png.subarray(0, png.length - 40));
    expect(await refusal(truncated)).toMatchObject({ code: 'invalid_image' });
  });
});

describe('fitRaster', () => {
  it('shrinks a raster that is too large and returns one that fits unchanged', async () => {
    const img = raw(40, 10, [10, 20, 30, 255]);
    expect(await fitRaster(img, 40)).toBe(img);
    const fitted = await fitRaster(img, 8);
    expect([fitted.width, fitted.height]).toEqual([8, 2]);
    expect([...fitted.data.subarray(0, 4)]).toEqual([10, 20, 30, 255]);
  });
});

describe('hasTransparency', () => {
  it('is true when any pixel is not fully opaque', () => {
    const img = raw(3, 3, [0, 0, 0, 255]);
    expect(hasTransparency(img)).toBe(false);
    img.data[4 * 8 + 3] = 254;
    expect(hasTransparency(img)).toBe(true);
  });
});

describe('encodeTexture', () => {
  it('keeps transparency as PNG only when asked and present, else JPEG on white, sized to powers of two', async () => {
    const clear = raw(6, 3, [255, 0, 0, 0]);
    const png = await encodeTexture(clear, true);
    expect([png.mimeType, png.alpha]).toEqual(['image/png', true]);
    expect(await sharp(png.bytes).metadata()).toMatchObject({ format: 'png', width: 8, height: 4, hasAlpha: true });
    const flattened = await encodeTexture(clear, false);
    expect([flattened.mimeType, flattened.alpha]).toEqual(['image/jpeg', false]);
    const pixel = await sharp(flattened.bytes).raw().toBuffer();
    expect(Math.min(...pixel.subarray(0, 3))).toBeGreaterThan(240);
    const opaque = await encodeTexture(raw(5, 5, [0, 0, 255, 255]), true);
    expect(opaque.mimeType).toBe('image/jpeg');
    expect(await sharp(opaque.bytes).metadata()).toMatchObject({ width: 4, height: 4 });
  });
});

describe('luminance', () => {
  it('weighs red, green and blue as Rec. 709 and blends by alpha over the background', () => {
    expect([...luminance(raw(1, 1, [255, 0, 0, 255]))][0]).toBeCloseTo(0.2126, 4);
    expect([...luminance(raw(1, 1, [0, 255, 0, 255]))][0]).toBeCloseTo(0.7152, 4);
    expect([...luminance(raw(1, 1, [0, 0, 255, 255]))][0]).toBeCloseTo(0.0722, 4);
    expect([...luminance(raw(1, 1, [255, 255, 255, 0]), 0.25)][0]).toBeCloseTo(0.25, 6);
    expect([...luminance(raw(1, 1, [255, 255, 255, 51]), 0)][0]).toBeCloseTo(0.2, 6);
  });
});

describe('nearestPowerOfTwo', () => {
  it('rounds to the nearest power of two on a log scale, at least 1', () => {
    expect([0.3, 1, 2, 3, 5, 6, 700, 1024, 1500].map(nearestPowerOfTwo)).toEqual([1, 1, 2, 4, 4, 8, 512, 1024, 2048]);
  });
});
