import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageProblem } from '../../src/registry/check-image.ts';
import { makeThumbnail, thumbnailOrNull } from '../../src/site/thumbnails.ts';
import { pngBytes, sri } from '../support/fixture-registry.ts';

describe('makeThumbnail', () => {
  let dir: string;
  let source: string;
  let hash: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-thumbs-'));
    source = join(dir, 'photo.png');
    const bytes = await pngBytes(800, 400);
    await writeFile(source, bytes);
    hash = sri(bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('makes a WebP and a JPEG 320 pixels wide, with their size', async () => {
    const thumb = await makeThumbnail(source, hash, join(dir, 'cache-a'));
    expect(thumb).toMatchObject({ width: 320, height: 160 });
    expect(await sharp(thumb.webp).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160 });
    expect(await sharp(thumb.jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 160 });
  });

  it('finds its files in a cache that moved, without making them again', async () => {
    const first = await makeThumbnail(source, hash, join(dir, 'cache-b'));
    const made = (await stat(first.webp)).mtimeMs;
    await cp(join(dir, 'cache-b'), join(dir, 'cache-moved'), { recursive: true, preserveTimestamps: true });
    await rm(join(dir, 'cache-b'), { recursive: true });
    const moved = await makeThumbnail(source, hash, join(dir, 'cache-moved'));
    expect(moved.webp.startsWith(join(dir, 'cache-moved'))).toBe(true);
    expect(moved.jpeg.startsWith(join(dir, 'cache-moved'))).toBe(true);
    expect(Math.abs((await stat(moved.webp)).mtimeMs - made)).toBeLessThan(1);
  });

  it('makes the images again when the record is there but a file is gone', async () => {
    const cache = join(dir, 'cache-c');
    const first = await makeThumbnail(source, hash, cache);
    await cp(cache, join(dir, 'cache-d'), { recursive: true });
    await rm(join(dir, 'cache-d', 'thumbnails', first.webp.split('/').pop()!));
    const again = await makeThumbnail(source, hash, join(dir, 'cache-d'));
    expect(await sharp(again.webp).metadata()).toMatchObject({ format: 'webp', width: 320 });
  });
});

describe('thumbnailOrNull', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-thumbs-null-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('makes the thumbnail of an AVIF image, which browser-image shows', async () => {
    const bytes = new Uint8Array(await sharp({ create: { width: 64, height: 32, channels: 3, background: '#226688' } }).avif().toBuffer());
    const file = join(dir, 'photo.avif');
    await writeFile(file, bytes);
    const thumb = await thumbnailOrNull(file, sri(bytes), join(dir, 'cache'), () => expect.unreachable());
    expect(thumb).toMatchObject({ width: 64, height: 32 });
  });

  it('gives null and names the file when the pixels cannot be read, although the header can', async () => {
    const whole = await pngBytes(400, 300);
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    const file = join(dir, 'cut.png');
    await writeFile(file, cut);
    expect(await imageProblem(file, 'image/png')).toBeNull();
    const warnings: string[] = [];
    expect(await thumbnailOrNull(file, sri(cut), join(dir, 'cache'), (m) => warnings.push(m))).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${file}: no thumbnail: `));
  });
});
