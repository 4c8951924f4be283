import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { AS_IS_MAX_BYTES, endsWhole, isAnimatedPng, showAsIs } from '../../../src/site/data/thumbnail-as-is.ts';

/** A card's picture box. */
const BOX = { width: 320, height: 240 };

/** A 96 x 72 image with some detail, encoded by sharp's encoders. */
function photo(width = 96, height = 72): Sharp {
  return sharp({ create: { width, height, channels: 3, background: { r: 150, g: 120, b: 90 } } }).composite([
    { input: { create: { width: Math.ceil(width / 3), height: Math.ceil(height / 3), channels: 3, background: '#225588' } }, left: 3, top: 4 },
  ]);
}

async function shownAsIs(bytes: Uint8Array): Promise<boolean> {
  return showAsIs(bytes, await sharp(bytes).metadata(), BOX);
}

/** A PNG chunk: its length, type, data and CRC. */
function chunk(type: string, data: Uint8Array): Buffer {
  const bytes = Buffer.alloc(12 + data.length);
  bytes.writeUInt32BE(data.length, 0);
  bytes.write(type, 4, 'latin1');
  Buffer.from(data).copy(bytes, 8);
  bytes.writeUInt32BE(crc32(bytes.subarray(4, 8 + data.length)), 8 + data.length);
  return bytes;
}

/** A PNG with a chunk of `type` right after its header chunk (the signature and IHDR are 33 bytes). */
function withChunk(png: Uint8Array, type: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([png.subarray(0, 33), chunk(type, data), png.subarray(33)]);
}

describe('showAsIs', () => {
  it('shows a small, whole JPEG, PNG or WebP as it is', async () => {
    for (const bytes of [await photo().jpeg().toBuffer(), await photo().png().toBuffer(), await photo().webp().toBuffer(), await photo().greyscale().jpeg().toBuffer()]) {
      expect(bytes.length).toBeLessThanOrEqual(AS_IS_MAX_BYTES);
      expect(await shownAsIs(bytes)).toBe(true);
    }
  });

  it('makes a WebP of an image wider or taller than a card\'s picture box, or heavier than a thumbnail, or in AVIF', async () => {
    expect(await shownAsIs(await photo(BOX.width + 1, 40).jpeg().toBuffer())).toBe(false);
    expect(await shownAsIs(await photo(BOX.width, 40).jpeg().toBuffer())).toBe(true);
    expect(await shownAsIs(await photo(40, BOX.height + 1).jpeg().toBuffer())).toBe(false);
    expect(await shownAsIs(await photo(40, BOX.height).jpeg().toBuffer())).toBe(true);
    // Noise does not compress: a 200 x 150 PNG of it is far over the budget.
    let seed = 1;
    const noise = Buffer.from(Array.from({ length: 200 * 150 * 3 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24));
    const heavy = await sharp(noise, { raw: { width: 200, height: 150, channels: 3 } }).png().toBuffer();
    expect(heavy.length).toBeGreaterThan(AS_IS_MAX_BYTES);
    expect(await shownAsIs(heavy)).toBe(false);
    expect(await shownAsIs(await photo().avif().toBuffer())).toBe(false);
  });

  it('makes a WebP of an image a browser might show otherwise: turned by EXIF, CMYK, animated', async () => {
    expect(await shownAsIs(await photo().jpeg().withMetadata({ orientation: 6 }).toBuffer())).toBe(false);
    expect(await shownAsIs(await photo().jpeg().withMetadata({ orientation: 1 }).toBuffer())).toBe(true);
    const cmyk = await photo().toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    expect(await shownAsIs(cmyk)).toBe(false);
    const frames = await Promise.all([photo().png().toBuffer(), photo().negate().png().toBuffer()]);
    const animated = await sharp(frames, { join: { animated: true } }).webp().toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    expect(await shownAsIs(animated)).toBe(false);
    // An APNG: an animation control chunk before the image data. Browsers animate it.
    const apng = withChunk(await photo().png().toBuffer(), 'acTL', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 0]));
    expect(isAnimatedPng(apng)).toBe(true);
    expect(await shownAsIs(apng)).toBe(false);
    // Any other chunk there is not an animation.
    expect(await shownAsIs(withChunk(await photo().png().toBuffer(), 'tEXt', new TextEncoder().encode('Comment\0hello')))).toBe(true);
  });

  it('makes a WebP of a truncated JPEG or PNG, whose header reads but whose pixels do not', async () => {
    for (const bytes of [await photo().jpeg().toBuffer(), await photo().png().toBuffer()]) {
      const cut = bytes.subarray(0, bytes.length - 20);
      const header = await sharp(cut).metadata();
      expect(header.width).toBe(96);
      expect(showAsIs(cut, header, BOX)).toBe(false);
      expect(endsWhole(bytes, header.format!)).toBe(true);
      expect(endsWhole(cut, header.format!)).toBe(false);
    }
    // sharp reads no header of a truncated WebP (the check refuses it); the rule would not show it either.
    const webp = await photo().webp().toBuffer();
    expect(endsWhole(webp, 'webp')).toBe(true);
    expect(endsWhole(webp.subarray(0, webp.length - 20), 'webp')).toBe(false);
  });

  it('makes a WebP of a PNG with a damaged chunk or bytes after its end', async () => {
    const png = await photo().png().toBuffer();
    const damaged = Buffer.from(png);
    damaged[40] = damaged[40]! ^ 0x10;
    expect(endsWhole(damaged, 'png')).toBe(false);
    expect(endsWhole(Buffer.concat([png, Buffer.from([0])]), 'png')).toBe(false);
  });

  it('shows as it is only PngSuite images that decode whole, and shows the plain 8-bit ones', async () => {
    const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'pngsuite', 'png');
    const shown: string[] = [];
    for (const name of (await readdir(dir)).sort()) {
      const bytes = await readFile(join(dir, name));
      const header = await sharp(bytes).metadata().catch(() => null);
      if (!header || !showAsIs(bytes, header, BOX)) continue;
      shown.push(name);
      // What is shown as it is must decode: the broken files (x*.png) never get here.
      await expect(sharp(bytes).raw().toBuffer(), name).resolves.toBeInstanceOf(Buffer);
      expect(name.startsWith('x'), name).toBe(false);
    }
    // RGB, RGB with alpha, grey and palette images of 8 bits, plain and interlaced.
    expect(shown).toEqual(expect.arrayContaining(['basn2c08.png', 'basn6a08.png', 'basn0g08.png', 'basn3p08.png', 'basi2c08.png']));
    // 16-bit images are not sRGB 8-bit: their WebP is made.
    expect(shown).not.toContain('basn2c16.png');
    // Two broken files whose header sharp reads (a wrong CRC in IHDR, in IDAT) are caught by their CRCs.
    expect(await sharp(await readFile(join(dir, 'xcsn0g01.png'))).metadata()).toMatchObject({ width: 32 });
    expect(shown).not.toContain('xcsn0g01.png');
    expect(shown).not.toContain('xhdn0g08.png');
  });
});

describe('isAnimatedPng', () => {
  it('stops at the image data: a chunk after it does not count', async () => {
    const png = await photo().png().toBuffer();
    expect(isAnimatedPng(png)).toBe(false);
    // The same chunk right before IEND, after IDAT, is not an APNG's.
    const end = png.length - 12;
    expect(isAnimatedPng(Buffer.concat([png.subarray(0, end), chunk('acTL', new Uint8Array(8)), png.subarray(end)]))).toBe(false);
    expect(isAnimatedPng(withChunk(png, 'acTL', new Uint8Array(8)))).toBe(true);
  });
});
