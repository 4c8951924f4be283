/** Image representations hold the format their media type names, so browsers and the thumbnail step can read them. */
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImage, imageProblem, isImage } from '../../src/registry/check-image.ts';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { createFixture, REGISTRY_URL, type Fixture } from './fixture.ts';

let fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
  fixtures = [];
});

const image = (format: 'png' | 'jpeg' | 'webp' | 'avif'): Promise<Uint8Array> =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: '#884422' } })
    .toFormat(format)
    .toBuffer()
    .then((b) => new Uint8Array(b));

async function registryWith(file: { id: string; format: string; mediaType: string; bytes: Uint8Array }): Promise<string[]> {
  const fx = await createFixture();
  fixtures.push(fx);
  await fx.addVersion({ id: 'photo', version: '1.0.0', files: [{ type: 'image', ...file }] });
  const { problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
  return problems.map(formatProblem);
}

describe('imageProblem', () => {
  it('judges bytes as it judges the file that holds them', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    const png = await image('png');
    const file = `${fx.root}/picture.png`;
    await writeFile(file, png);
    expect(await imageProblem(png, 'image/png')).toBeNull();
    expect(await imageProblem(file, 'image/png')).toBeNull();
    const asJpeg = await imageProblem(png, 'image/jpeg');
    expect(asJpeg).toBe('is declared image/jpeg but holds PNG; save it as JPEG or declare the media type of what it holds');
    expect(await imageProblem(file, 'image/jpeg')).toBe(asJpeg);
  });
});

describe('checkImage', () => {
  it("keeps the header's size, format, colour space and orientation, and none of its EXIF or ICC bytes", async () => {
    const rotated = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#884422' } }).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await sharp(rotated).metadata()).toHaveProperty('exif');
    expect(await checkImage(rotated, 'image/jpeg')).toEqual({ problem: null, header: { format: 'jpeg', width: 8, height: 6, space: 'srgb', orientation: 6 } });
    expect(await checkImage(await image('avif'), 'image/avif')).toEqual({ problem: null, header: expect.objectContaining({ format: 'heif', compression: 'av1', width: 8, height: 6 }) });
    expect(await checkImage(rotated, 'image/png')).toEqual({ problem: expect.stringMatching(/holds JPEG/), header: null });
    expect(await checkImage(rotated, 'image/gif')).toEqual({ problem: null, header: null });
  });

  it('keeps the same header whether it reads the bytes itself or sharp reads the file, and leaves what it cannot read to sharp', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    const base = () => sharp({ create: { width: 9, height: 7, channels: 3, background: '#884422' } });
    const cases: Array<[Uint8Array, string]> = [
      [await base().withMetadata({ orientation: 3 }).jpeg().toBuffer(), 'image/jpeg'],
      [await base().toColourspace('b-w').png().toBuffer(), 'image/png'],
      [await base().webp({ lossless: true }).toBuffer(), 'image/webp'],
      [await base().toColourspace('cmyk').jpeg().toBuffer(), 'image/jpeg'], // CMYK: read by sharp
      [await base().withMetadata({ orientation: 6 }).webp().toBuffer(), 'image/webp'], // EXIF in a WebP: read by sharp
    ];
    for (const [n, [bytes, mediaType]] of cases.entries()) {
      const file = `${fx.root}/image-${n}`;
      await writeFile(file, bytes);
      const fromFile = await checkImage(file, mediaType);
      expect(fromFile.header).not.toBeNull();
      expect(await checkImage(bytes, mediaType)).toEqual(fromFile);
    }
    // A JPEG cut inside its header: neither reader reads it, and the walk of its segments names it cut short.
    const cut = (await base().jpeg().toBuffer()).subarray(0, 40);
    expect(await checkImage(cut, 'image/jpeg')).toEqual({ problem: 'does not decode as image/jpeg: the file ends before the image data does (truncated?)', header: null });
  });

  it('hands the header to the version it checked, and none for a file that is no image', async () => {
    const fx = await createFixture();
    fixtures.push(fx);
    await fx.addVersion({ id: 'photo', version: '1.0.0', files: [{ type: 'image', id: 'picture', format: 'webp', mediaType: 'image/webp', bytes: await image('webp') }] });
    const { registry, problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
    expect(problems).toEqual([]);
    const files = registry.objects[0]!.versions[0]!.files;
    expect(files.find((f) => f.rep.id === 'picture')!.image).toEqual({ format: 'webp', width: 8, height: 6, space: 'srgb' });
    expect(files.filter((f) => f.rep.id !== 'picture').every((f) => f.image === undefined)).toBe(true);
  });
});

describe('the image rule in the check', () => {
  it('accepts PNG, JPEG, WebP and AVIF under their media types', async () => {
    for (const [format, mediaType] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['webp', 'image/webp'], ['avif', 'image/avif']] as const) {
      expect(await registryWith({ id: 'picture', format: format === 'jpeg' ? 'jpg' : format, mediaType, bytes: await image(format) })).toEqual([]);
    }
  });

  it('refuses bytes that are no image, naming the file', async () => {
    const problems = await registryWith({ id: 'picture', format: 'png', mediaType: 'image/png', bytes: new TextEncoder().encode('not an image at all') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^registry\/objects\/photo\/versions\/1\.0\.0\/representations\/picture\.png: file: is declared image\/png but is not an image that can be read: /);
  });

  it('refuses an image whose format is not the declared one', async () => {
    expect(await registryWith({ id: 'picture', format: 'avif', mediaType: 'image/avif', bytes: await image('png') })).toEqual([
      'registry/objects/photo/versions/1.0.0/representations/picture.avif: file: is declared image/avif but holds PNG; save it as AVIF or declare the media type of what it holds',
    ]);
  });

  it('checks only the media types the image runtime shows', () => {
    expect(isImage({ mediaType: 'image/avif' })).toBe(true);
    expect(isImage({ mediaType: 'image/gif' })).toBe(false);
    expect(isImage({ mediaType: 'model/gltf-binary' })).toBe(false);
  });

  it('says nothing for a media type it does not check', async () => {
    expect(await imageProblem('/nonexistent', 'application/octet-stream')).toBeNull();
  });
});
