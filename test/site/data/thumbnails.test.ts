import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImage, imageProblem } from '../../../src/registry/check-image.ts';
import { denseThumbnailKey, makeThumbnail, openThumbnailIndex, saveThumbnailIndex, thumbnailKey, thumbnailOrNull } from '../../../src/site/data/thumbnails.ts';

/** The format of the cache's index this code writes. */
const FORMAT = 'thumbnail/5 boxed webp, dense webp or as-is';
import { pngBytes, sri } from '../../support/fixture-registry.ts';

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

  it('makes a WebP that fits a card\'s picture box and one twice that size for dense screens, and no other image file', async () => {
    const cache = join(dir, 'cache-a');
    const thumb = await makeThumbnail({ path: source, hash }, cache);
    expect(thumb).toMatchObject({ width: 320, height: 160, dense: { width: 640, height: 320 } });
    expect(thumb.file!.endsWith('.webp')).toBe(true);
    expect(await sharp(thumb.file!).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160 });
    expect(await sharp(thumb.dense!.file).metadata()).toMatchObject({ format: 'webp', width: 640, height: 320 });
    expect((await readdir(join(cache, 'thumbnails'))).sort()).toEqual([`${thumbnailKey(hash)}.webp`, `${denseThumbnailKey(hash)}.webp`].sort());
  });

  it('fits a tall image by its height, and never makes one larger than its source', async () => {
    const sizes: Array<[number, number, object]> = [
      // Tall: the box's height binds; the source has pixels for a dense twin.
      [300, 600, { width: 120, height: 240, dense: { width: 240, height: 480 } }],
      // Barely larger than the box: a dense twin would add little, so none is made.
      [400, 300, { width: 320, height: 240, dense: null }],
      // Smaller than the box (and too heavy to be shown as it is): made at its own size.
      [200, 150, { width: 200, height: 150, dense: null }],
    ];
    for (const [width, height, expected] of sizes) {
      // Noise, so that even the small one is too heavy to be shown as it is.
      let seed = width;
      const raw = Buffer.from(Array.from({ length: width * height * 3 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24));
      const bytes = new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer());
      const file = join(dir, `noise-${width}x${height}.png`);
      await writeFile(file, bytes);
      const thumb = await makeThumbnail({ path: file, hash: sri(bytes) }, join(dir, 'cache-sizes'));
      expect(thumb, `${width} x ${height}`).toMatchObject(expected);
      expect(await sharp(thumb.file!).metadata()).toMatchObject({ format: 'webp', width: thumb.width, height: thumb.height });
    }
  });

  it('leaves no file under its name when the image cannot be made, nor any partial file', async () => {
    const cache = join(dir, 'cache-broken');
    const whole = await pngBytes(400, 300);
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    const file = join(dir, 'broken.png');
    await writeFile(file, cut);
    await expect(makeThumbnail({ path: file, hash: sri(cut) }, cache)).rejects.toThrow();
    expect(await readdir(join(cache, 'thumbnails'))).toEqual([]);
  });

  it('makes an image asked for twice at once only once, and finds it when asked again afterwards', async () => {
    const cache = join(dir, 'cache-twice');
    const index = await openThumbnailIndex(cache);
    const [a, b] = await Promise.all([makeThumbnail({ path: source, hash }, cache, index), makeThumbnail({ path: source, hash }, cache, index)]);
    expect(b).toEqual(a);
    expect(index.added).toBe(1);
    const made = (await stat(a.file!)).mtimeMs;
    const again = await makeThumbnail({ path: source, hash }, cache, index);
    expect(again).toEqual(a);
    expect(index.added).toBe(1);
    expect((await stat(again.file!)).mtimeMs).toBe(made);
  });

  it('finds its file in a cache that moved, without making it again', async () => {
    const first = await makeThumbnail({ path: source, hash }, join(dir, 'cache-b'));
    const made = (await stat(first.file!)).mtimeMs;
    await cp(join(dir, 'cache-b'), join(dir, 'cache-moved'), { recursive: true, preserveTimestamps: true });
    await rm(join(dir, 'cache-b'), { recursive: true });
    const moved = await makeThumbnail({ path: source, hash }, join(dir, 'cache-moved'));
    expect(moved.file!.startsWith(join(dir, 'cache-moved'))).toBe(true);
    expect(moved).toMatchObject({ width: 320, height: 160 });
    expect(Math.abs((await stat(moved.file!)).mtimeMs - made)).toBeLessThan(1);
  });

  it('lists what it made in the cache\'s index, where the next build finds the size without reading the image', async () => {
    const cache = join(dir, 'cache-index');
    const index = await openThumbnailIndex(cache);
    const made = await makeThumbnail({ path: source, hash }, cache, index);
    await saveThumbnailIndex(cache, index);
    const key = thumbnailKey(hash);
    expect(JSON.parse(await readFile(join(cache, 'thumbnails', 'index.json'), 'utf8'))).toEqual({ format: FORMAT, records: { [key]: [320, 160, 640, 320] } });
    // Another process (a copy of the cache, so that this one's memo of made thumbnails does not answer): the index
    // answers, with a size the image does not have, to show that the image is not read.
    const next = join(dir, 'cache-index-next');
    await cp(cache, next, { recursive: true, preserveTimestamps: true });
    await writeFile(join(next, 'thumbnails', 'index.json'), JSON.stringify({ format: FORMAT, records: { [key]: [32, 16, 64, 32] } }));
    const again = await makeThumbnail({ path: source, hash }, next, await openThumbnailIndex(next));
    expect(again).toEqual({
      width: 32,
      height: 16,
      file: join(next, 'thumbnails', basename(made.file!)),
      dense: { width: 64, height: 32, file: join(next, 'thumbnails', basename(made.dense!.file)) },
    });
    expect(Math.abs((await stat(again.file!)).mtimeMs - (await stat(made.file!)).mtimeMs)).toBeLessThan(1);
  });

  it('reads the size of a thumbnail its index does not list from the file, without making it again', async () => {
    const cache = join(dir, 'cache-unlisted');
    const index = await openThumbnailIndex(cache);
    const made = await makeThumbnail({ path: source, hash }, cache, index);
    // The build stopped before it saved its index: the next one finds the file alone.
    const next = join(dir, 'cache-unlisted-next');
    await cp(cache, next, { recursive: true, preserveTimestamps: true });
    const nextIndex = await openThumbnailIndex(next);
    const again = await makeThumbnail({ path: source, hash }, next, nextIndex);
    expect(again).toEqual({
      width: 320,
      height: 160,
      file: join(next, 'thumbnails', basename(made.file!)),
      dense: { width: 640, height: 320, file: join(next, 'thumbnails', basename(made.dense!.file)) },
    });
    expect(Math.abs((await stat(again.file!)).mtimeMs - (await stat(made.file!)).mtimeMs)).toBeLessThan(1);
    expect(Math.abs((await stat(again.dense!.file)).mtimeMs - (await stat(made.dense!.file)).mtimeMs)).toBeLessThan(1);
    expect(nextIndex.added).toBe(1);
  });

  it('does not trust the index for an image that is gone: it makes it again', async () => {
    const cache = join(dir, 'cache-index-gone');
    const index = await openThumbnailIndex(cache);
    const made = await makeThumbnail({ path: source, hash }, cache, index);
    await saveThumbnailIndex(cache, index);
    const next = join(dir, 'cache-index-gone-next');
    await cp(cache, next, { recursive: true });
    await rm(join(next, 'thumbnails', basename(made.file!)));
    const again = await makeThumbnail({ path: source, hash }, next, await openThumbnailIndex(next));
    expect(await sharp(again.file!).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160 });
  });

  it("removes what a stopped build half wrote, and older builds' records and JPEGs, when it opens the cache", async () => {
    const cache = join(dir, 'cache-leftovers');
    const made = await makeThumbnail({ path: source, hash }, cache);
    const thumbs = join(cache, 'thumbnails');
    const key = thumbnailKey(hash);
    // A process that has ended, and this one, which may be writing that file right now (another build, say).
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const writing = `${key}.webp.${process.pid}-1.partial`;
    for (const name of [`${key}.webp.${gone}-4.partial`, `${key}.json`, `${key}.jpg`, writing]) await writeFile(join(thumbs, name), 'left over');
    const index = await openThumbnailIndex(cache);
    const kept = [basename(made.file!), basename(made.dense!.file), writing].sort();
    expect([...index.files].sort()).toEqual(kept);
    expect((await readdir(thumbs)).sort()).toEqual(kept);
  });

  it('makes its folder again when the cache was removed since (a dev server that outlives its cache)', async () => {
    const cache = join(dir, 'cache-removed');
    await makeThumbnail({ path: source, hash }, cache, await openThumbnailIndex(cache));
    await rm(cache, { recursive: true });
    const again = await makeThumbnail({ path: source, hash }, cache, await openThumbnailIndex(cache));
    expect(await sharp(again.file!).metadata()).toMatchObject({ format: 'webp', width: 320 });
  });

  it('does not read an index of another format: it finds the size in the file', async () => {
    const thumbs = join(dir, 'cache-old-index', 'thumbnails');
    const key = thumbnailKey(hash);
    await makeThumbnail({ path: source, hash }, join(dir, 'cache-old-index'));
    await writeFile(join(thumbs, 'index.json'), JSON.stringify({ format: 'thumbnail/2 webp', records: { [key]: [7, 5] } }));
    const index = await openThumbnailIndex(join(dir, 'cache-old-index'));
    expect(index.records.size).toBe(0);
  });

  it('makes the image again when a file under its name is not a WebP (not one this build wrote)', async () => {
    const thumbs = join(dir, 'cache-old', 'thumbnails');
    const key = thumbnailKey(hash);
    await mkdir(thumbs, { recursive: true });
    await writeFile(join(thumbs, `${key}.webp`), await pngBytes(7, 5));
    const thumb = await makeThumbnail({ path: source, hash }, join(dir, 'cache-old'), await openThumbnailIndex(join(dir, 'cache-old')));
    expect(thumb).toEqual({ width: 320, height: 160, file: join(thumbs, `${key}.webp`), dense: { width: 640, height: 320, file: join(thumbs, `${denseThumbnailKey(hash)}.webp`) } });
    expect(await sharp(thumb.file!).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160 });
    expect((await readdir(thumbs)).sort()).toEqual([`${key}.webp`, `${denseThumbnailKey(hash)}.webp`].sort());
  });

  it('keeps the transparency of the source (WebP has alpha; nothing is flattened onto a background)', async () => {
    // A 400 x 200 image, transparent but for an opaque red square in the middle.
    const bytes = new Uint8Array(
      await sharp({ create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .composite([{ input: { create: { width: 100, height: 100, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }, left: 150, top: 50 }])
        .png()
        .toBuffer(),
    );
    const file = join(dir, 'cutout.png');
    await writeFile(file, bytes);
    const thumb = await makeThumbnail({ path: file, hash: sri(bytes) }, join(dir, 'cache-alpha'));
    expect(await sharp(thumb.file!).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160, hasAlpha: true });
    const { data, info } = await sharp(thumb.file!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
    expect(pixel(5, 5)[3]).toBe(0);
    const [r, g, b, a] = pixel(160, 80);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(200);
    expect(g! + b!).toBeLessThan(60);
  });
});

describe('makeThumbnail of a small image', () => {
  let dir: string;
  let source: string;
  let hash: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-thumbs-as-is-'));
    source = join(dir, 'reference.jpg');
    const bytes = new Uint8Array(await sharp({ create: { width: 96, height: 72, channels: 3, background: '#997755' } }).jpeg().toBuffer());
    await writeFile(source, bytes);
    hash = sri(bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('shows it as it is: its size, no file, nothing written but the index, which says so', async () => {
    const cache = join(dir, 'cache-a');
    const index = await openThumbnailIndex(cache);
    expect(await makeThumbnail({ path: source, hash }, cache, index)).toEqual({ width: 96, height: 72, file: null, dense: null });
    await saveThumbnailIndex(cache, index);
    expect(await readdir(join(cache, 'thumbnails'))).toEqual(['index.json']);
    expect(JSON.parse(await readFile(join(cache, 'thumbnails', 'index.json'), 'utf8'))).toEqual({ format: FORMAT, records: { [thumbnailKey(hash)]: [96, 72, 'as-is'] } });
  });

  it('takes the answer from the index without reading the image', async () => {
    const cache = join(dir, 'cache-listed');
    await mkdir(join(cache, 'thumbnails'), { recursive: true });
    await writeFile(join(cache, 'thumbnails', 'index.json'), JSON.stringify({ format: FORMAT, records: { [thumbnailKey(hash)]: [9, 7, 'as-is'] } }));
    expect(await makeThumbnail({ path: join(dir, 'no-such-file.jpg'), hash }, cache, await openThumbnailIndex(cache))).toEqual({ width: 9, height: 7, file: null, dense: null });
  });

  it('shows it as it is when the cache holds a WebP of it from a build before that rule: the site does not depend on the cache', async () => {
    const cache = join(dir, 'cache-older');
    const thumbs = join(cache, 'thumbnails');
    await mkdir(thumbs, { recursive: true });
    await writeFile(join(thumbs, `${thumbnailKey(hash)}.webp`), await sharp(source).webp().toBuffer());
    await writeFile(join(thumbs, 'index.json'), JSON.stringify({ format: 'thumbnail/3 webp', records: { [thumbnailKey(hash)]: [96, 72] } }));
    expect(await makeThumbnail({ path: source, hash }, cache, await openThumbnailIndex(cache))).toEqual({ width: 96, height: 72, file: null, dense: null });
  });

  it('decides from the header the check read, when it is given, without asking sharp again', async () => {
    const { header } = await checkImage(source, 'image/jpeg');
    expect(header).toEqual({ format: 'jpeg', width: 96, height: 72, space: 'srgb' });
    expect(await makeThumbnail({ path: source, hash, header: header! }, join(dir, 'cache-header'))).toEqual({ width: 96, height: 72, file: null, dense: null });
    // The header given is what the rule reads: one that says CMYK (sharp reads sRGB from these bytes) makes a WebP.
    const cmyk = await makeThumbnail({ path: source, hash, header: { ...header, space: 'cmyk' } }, join(dir, 'cache-header-cmyk'));
    expect(cmyk).toMatchObject({ width: 96, height: 72 });
    expect(cmyk.file!.endsWith('.webp')).toBe(true);
  });

  it('makes a WebP of a truncated one, and fails as sharp does when the pixels cannot be read', async () => {
    const whole = await readFile(source);
    const cut = new Uint8Array(whole.subarray(0, whole.length - 40));
    const file = join(dir, 'cut.jpg');
    await writeFile(file, cut);
    await expect(makeThumbnail({ path: file, hash: sri(cut) }, join(dir, 'cache-cut'))).rejects.toThrow();
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
    const thumb = await thumbnailOrNull({ path: file, hash: sri(bytes) }, join(dir, 'cache'), () => expect.unreachable());
    expect(thumb).toMatchObject({ width: 64, height: 32 });
  });

  it('gives null and names the file when the pixels cannot be read, although the header can', async () => {
    const whole = await pngBytes(400, 300);
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    const file = join(dir, 'cut.png');
    await writeFile(file, cut);
    expect(await imageProblem(file, 'image/png')).toMatch(/^does not decode as image\/png: /);
    const warnings: string[] = [];
    expect(await thumbnailOrNull({ path: file, hash: sri(cut) }, join(dir, 'cache'), (m) => warnings.push(m))).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${file}: no thumbnail: `));
  });
});
