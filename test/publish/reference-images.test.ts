import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { previewImage, referenceImage } from '../../src/publish/reference-images.ts';

/** A JPEG of `width` x `height` carrying EXIF (a camera and GPS-like text) and the given orientation. */
async function cameraJpeg(width: number, height: number, orientation = 1): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withMetadata({ orientation })
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Ada Lovelace, 12 Home Street' } })
    .toBuffer();
  return new Uint8Array(buffer);
}

describe('referenceImage', () => {
  it('re-encodes the input as a JPEG file without its metadata', async () => {
    const input = await cameraJpeg(64, 48);
    expect(Buffer.from(input).toString('latin1')).toContain('SecretCam');
    const ref = await referenceImage(input);
    expect(ref).toMatchObject({ rep: { id: 'reference', type: 'image', format: 'jpg', mediaType: 'image/jpeg' }, role: 'reference-image', width: 64, height: 48 });
    const meta = await sharp(ref.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(Buffer.from(ref.bytes).toString('latin1')).not.toContain('SecretCam');
  });

  it('turns the image upright by its EXIF orientation', async () => {
    const ref = await referenceImage(await cameraJpeg(64, 48, 6));
    expect([ref.width, ref.height]).toEqual([48, 64]);
    expect((await sharp(ref.bytes).metadata()).orientation).toBeUndefined();
  });

  it('scales a large input down to 2048 pixels on its longest side, and never up', async () => {
    const big = await referenceImage(new Uint8Array(await sharp({ create: { width: 4096, height: 1024, channels: 3, background: '#000' } }).png().toBuffer()));
    expect([big.width, big.height]).toEqual([2048, 512]);
    const small = await referenceImage(await cameraJpeg(10, 20));
    expect([small.width, small.height]).toEqual([10, 20]);
  });

  it('flattens transparency on white', async () => {
    const clear = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer());
    const { data } = await sharp((await referenceImage(clear)).bytes).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeGreaterThan(240);
  });
});

describe('previewImage', () => {
  it('is a PNG of at most 400 pixels on its longest side, upright', async () => {
    const preview = await previewImage(await cameraJpeg(1000, 500, 8));
    expect(preview).toMatchObject({ rep: { id: 'preview', type: 'image', format: 'png', mediaType: 'image/png' }, role: 'preview', width: 200, height: 400 });
    expect(await sharp(preview.bytes).metadata()).toMatchObject({ format: 'png', width: 200, height: 400 });
    expect(Buffer.from(preview.bytes).toString('latin1')).not.toContain('SecretCam');
    const small = await previewImage(await cameraJpeg(30, 20));
    expect([small.width, small.height]).toEqual([30, 20]);
  });
});
