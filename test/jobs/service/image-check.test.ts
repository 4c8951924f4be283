import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkImage, ImageRejection } from '../../../src/jobs/service/image-check.ts';

const roomy = { maxImageBytes: 1024 * 1024, maxImagePixels: 1_000_000 };
const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#336699' } });

/** The ImageRejection a check ends with. */
async function rejection(bytes: Uint8Array, limits = roomy): Promise<ImageRejection> {
  const error = await checkImage(bytes, limits).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImageRejection);
  return error as ImageRejection;
}

describe('checkImage', () => {
  let png: Uint8Array;
  let jpeg: Uint8Array;
  beforeAll(async () => {
    png = new Uint8Array(await image(40, 30).png().toBuffer());
    jpeg = new Uint8Array(await image(64, 48).jpeg().toBuffer());
  });

  it('reads the format and size from the header', async () => {
    expect(await checkImage(png, roomy)).toEqual({ format: 'png', width: 40, height: 30 });
    expect(await checkImage(jpeg, roomy)).toEqual({ format: 'jpeg', width: 64, height: 48 });
    const webp = new Uint8Array(await image(10, 20).webp().toBuffer());
    expect(await checkImage(webp, roomy)).toEqual({ format: 'webp', width: 10, height: 20 });
  });

  it('refuses more bytes than the limit before decoding anything (413)', async () => {
    const error = await rejection(png, { ...roomy, maxImageBytes: png.length - 1 });
    expect(error).toMatchObject({ status: 413, code: 'image_too_large', message: `the image has ${png.length} bytes; the limit is ${png.length - 1}` });
    expect(await checkImage(png, { ...roomy, maxImageBytes: png.length })).toMatchObject({ format: 'png' });
  });

  it('refuses more pixels than the limit, with the dimensions (413)', async () => {
    const error = await rejection(jpeg, { ...roomy, maxImagePixels: 64 * 48 - 1 });
    expect(error).toMatchObject({ status: 413, code: 'image_too_large', message: `the image has 3072 pixels (64x48); the limit is ${64 * 48 - 1}` });
    expect(await checkImage(jpeg, { ...roomy, maxImagePixels: 64 * 48 })).toMatchObject({ width: 64 });
  });

  it('refuses bytes that are not an image (415)', async () => {
    const error = await rejection(new TextEncoder().encode('<html>not an image</html>'));
    expect(error).toMatchObject({ status: 415, code: 'unsupported_image' });
    expect(error.message).toBe('the image is not in a readable format; send one of jpeg, png, webp, avif, gif, tiff');
  });

  it('refuses an image format the models do not take, naming it (415)', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    const error = await rejection(svg);
    expect(error).toMatchObject({ status: 415, code: 'unsupported_image', message: 'image format "svg" is not accepted; send one of jpeg, png, webp, avif, gif, tiff' });
  });
});
