/**
 * The image rule decodes every image in full: a picture cut short or damaged whose header still reads is refused,
 * naming the file and why, and every whole image of the fixtures still passes. Real encoders, real cuts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32 } from '@aso-registry/core/format/image-header';
import { TRUNCATED } from '@aso-registry/core/format/image-structure';
import { checkImage } from '../../src/registry/check-image.ts';
import { fileCheckCachePath, openFileCheckCache } from '../../src/registry/file-check-cache.ts';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { createFixture, REGISTRY_URL, sri, type FileSpec } from './fixture.ts';

const REPO = join(import.meta.dirname, '..', '..');
const SAMPLE = join(REPO, 'registry', 'objects');
const PNGSUITE = join(REPO, 'test', 'fixtures', 'pngsuite', 'png');

const sample = (path: string): Promise<Buffer> => readFile(join(SAMPLE, path));

/** The offset of a JPEG's first start-of-scan marker, where its entropy-coded data begins. */
function startOfScan(bytes: Uint8Array): number {
  for (let i = 2; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xda) return i;
  throw new Error('no scan');
}

/** A copy of `bytes` with the bytes from `at` for `count` inverted. */
function flipped(bytes: Uint8Array, at: number, count: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = at; i < at + count; i++) out[i] = out[i]! ^ 0xff;
  return out;
}

/** Images to cut and damage: the sample registry's photos, and WebP, AVIF and progressive JPEG made from them. */
interface Source {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

let sources: Source[];
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aso-decode-image-'));
  const photo = await sample('field-photo/versions/1.0.0/representations/photo.jpg');
  const preview = await sample('oak-chair/versions/1.1.0/representations/preview.png');
  sources = [
    { name: 'photo.jpg', mediaType: 'image/jpeg', bytes: photo },
    { name: 'reference.jpg', mediaType: 'image/jpeg', bytes: await sample('ceramic-vase/versions/1.0.0/representations/reference.jpg') },
    { name: 'progressive.jpg', mediaType: 'image/jpeg', bytes: await sharp(photo).jpeg({ progressive: true }).toBuffer() },
    { name: 'preview.png', mediaType: 'image/png', bytes: preview },
    { name: 'interlaced.png', mediaType: 'image/png', bytes: await sharp(preview).png({ progressive: true }).toBuffer() },
    { name: 'lossy.webp', mediaType: 'image/webp', bytes: await sharp(photo).webp().toBuffer() },
    { name: 'lossless.webp', mediaType: 'image/webp', bytes: await sharp(preview).webp({ lossless: true }).toBuffer() },
    { name: 'photo.avif', mediaType: 'image/avif', bytes: await sharp(photo).avif().toBuffer() },
  ].map((s) => ({ ...s, bytes: new Uint8Array(s.bytes) }));
}, 60_000);

afterAll(() => rm(work, { recursive: true, force: true }));

describe('the image rule decodes', () => {
  it('passes every whole image: the sources, the sample registry, PngSuite and the variants encoders write', async () => {
    const rgb = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120, sigma: 40 } } });
    const variants: Array<[string, string, Buffer]> = [
      ['grey.jpg', 'image/jpeg', await rgb().toColourspace('b-w').jpeg().toBuffer()],
      ['cmyk.jpg', 'image/jpeg', await rgb().toColourspace('cmyk').jpeg().toBuffer()],
      ['mozjpeg.jpg', 'image/jpeg', await rgb().jpeg({ mozjpeg: true }).toBuffer()],
      ['rotated.jpg', 'image/jpeg', await rgb().withMetadata({ orientation: 6 }).jpeg().toBuffer()],
      ['16-bit.png', 'image/png', await rgb().toColourspace('rgb16').png().toBuffer()],
      ['palette.png', 'image/png', await rgb().png({ palette: true }).toBuffer()],
      ['alpha.webp', 'image/webp', await rgb().ensureAlpha(0.5).webp().toBuffer()],
      ['rotated.webp', 'image/webp', await rgb().withMetadata({ orientation: 6 }).webp().toBuffer()],
      ['animated.webp', 'image/webp', await sharp([await rgb().png().toBuffer(), await rgb().png().toBuffer()], { join: { animated: true } }).webp().toBuffer()],
    ];
    const whole = [
      ...sources.map((s) => [s.name, s.mediaType, s.bytes] as const),
      ...variants,
      ...readdirSync(SAMPLE, { recursive: true, encoding: 'utf8' })
        .filter((p) => /\.(jpg|png)$/.test(p))
        .map((p) => [p, p.endsWith('.png') ? 'image/png' : 'image/jpeg', readFileSync(join(SAMPLE, p))] as const),
      ...readdirSync(PNGSUITE)
        .filter((n) => !n.startsWith('x'))
        .map((n) => [n, 'image/png', readFileSync(join(PNGSUITE, n))] as const),
    ];
    expect(whole.length).toBeGreaterThan(160);
    for (const [name, mediaType, bytes] of whole) expect({ name, problem: (await checkImage(bytes, mediaType)).problem }).toEqual({ name, problem: null });
  });

  it('refuses every image cut short: in half, without its last two bytes, inside its compressed data', async () => {
    for (const { name, mediaType, bytes } of sources) {
      const n = bytes.length;
      const cuts = [n >> 1, n - 2, Math.floor(n * 0.9)];
      if (mediaType === 'image/jpeg') cuts.push(startOfScan(bytes) + 100);
      for (const cut of cuts) {
        const { problem, header } = await checkImage(bytes.subarray(0, cut), mediaType);
        expect(header).toBeNull();
        if (mediaType === 'image/avif') expect({ name, cut, problem }).toEqual({ name, cut, problem: expect.stringMatching(/^(does not decode as image\/avif: the decoder stops: |is declared image\/avif but is not an image that can be read: )/) });
        else if (mediaType === 'image/png' && cut === n - 2) expect({ name, cut, problem }).toEqual({ name, cut, problem: 'does not decode as image/png: the file ends inside its IEND chunk, which closes every PNG (truncated?)' });
        else expect({ name, cut, problem }).toEqual({ name, cut, problem: `does not decode as ${mediaType}: ${TRUNCATED}` });
      }
    }
  });

  it('refuses a PNG without its IEND chunk, which decodes: the walk to IEND is what sees it', async () => {
    const png = sources.find((s) => s.name === 'preview.png')!.bytes;
    const cut = png.subarray(0, png.length - 12);
    expect((await sharp(cut, { failOn: 'warning' }).raw().toBuffer()).length).toBeGreaterThan(0);
    expect((await checkImage(cut, 'image/png')).problem).toBe('does not decode as image/png: the file ends before its IEND chunk, which closes every PNG (truncated?)');
  });

  it('refuses damaged compressed data whose structure holds, as the decoder reports it', async () => {
    // A JPEG's entropy-coded data with bytes inverted: libjpeg warns of corrupt data, which `failOn: 'error'` would pass.
    const photo = sources.find((s) => s.name === 'photo.jpg')!.bytes;
    const damaged = flipped(photo, startOfScan(photo) + 40, 20);
    await expect(sharp(damaged, { failOn: 'error' }).raw().toBuffer()).resolves.toBeInstanceOf(Buffer);
    expect((await checkImage(damaged, 'image/jpeg')).problem).toMatch(/^does not decode as image\/jpeg: the decoder stops: VipsJpeg: Corrupt JPEG data: /);
    // A PNG's compressed image data with a byte inverted and its CRC made right again: zlib refuses it.
    const png = Uint8Array.from(sources.find((s) => s.name === 'preview.png')!.bytes);
    const at = new TextDecoder('latin1').decode(png).indexOf('IDAT') - 4;
    const length = new DataView(png.buffer).getUint32(at);
    png[at + 8 + 50] = png[at + 8 + 50]! ^ 0xff;
    new DataView(png.buffer).setUint32(at + 8 + length, crc32(png.subarray(at + 4, at + 8 + length)));
    expect((await checkImage(png, 'image/png')).problem).toMatch(/^does not decode as image\/png: the decoder stops: /);
  });

  it('decodes every frame of an animated WebP, not only the first', async () => {
    const frames = await Promise.all([100, 130, 160].map((mean) => sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080', noise: { type: 'gaussian', mean, sigma: 50 } } }).png().toBuffer()));
    const animated = new Uint8Array(await sharp(frames, { join: { animated: true } }).webp({ lossless: true }).toBuffer());
    expect((await checkImage(animated, 'image/webp')).problem).toBeNull();
    const last = Buffer.from(animated).lastIndexOf('ANMF');
    const damaged = flipped(animated, last + 42, 1);
    await expect(sharp(damaged, { failOn: 'warning' }).raw().toBuffer()).resolves.toBeInstanceOf(Buffer);
    expect((await checkImage(damaged, 'image/webp')).problem).toMatch(/^does not decode as image\/webp: the decoder stops: /);
  });

  it("refuses PngSuite's broken files, every one", async () => {
    const broken = readdirSync(PNGSUITE).filter((n) => n.startsWith('x'));
    expect(broken.length).toBeGreaterThan(10);
    for (const name of broken) expect({ name, problem: (await checkImage(readFileSync(join(PNGSUITE, name)), 'image/png')).problem }).toEqual({ name, problem: expect.any(String) });
  });

  it('reads a file the hash did not keep in memory, and judges it as its bytes', async () => {
    const photo = sources.find((s) => s.name === 'photo.jpg')!.bytes;
    const file = join(work, 'cut.jpg');
    await writeFile(file, photo.subarray(0, photo.length >> 1));
    expect(await checkImage(file, 'image/jpeg')).toEqual({ problem: `does not decode as image/jpeg: ${TRUNCATED}`, header: null });
  });
});

describe('in the check and the build', () => {
  /** Loads a registry with one version whose preview is `preview` (and a GLB): its problems as lines, and the cache's image hits. */
  async function load(preview: FileSpec, cacheDir?: string): Promise<{ problems: string[]; imageHits?: number }> {
    const fx = await createFixture();
    try {
      await fx.addVersion({ id: 'lamp', version: '1.0.0', preview });
      const cache = cacheDir ? await openFileCheckCache(cacheDir) : undefined;
      const { problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL, ...(cache ? { hashFile: cache.hashFile, checkImageFile: cache.checkImage } : {}) });
      const stats = await cache?.save();
      return { problems: problems.map(formatProblem), ...(stats ? { imageHits: stats.imageHits } : {}) };
    } finally {
      await fx.cleanup();
    }
  }

  const cutPreview = (): FileSpec => {
    const photo = sources.find((s) => s.name === 'photo.jpg')!.bytes;
    return { id: 'preview', type: 'image', format: 'jpg', mediaType: 'image/jpeg', bytes: photo.subarray(0, photo.length - 2) };
  };
  const refused = [`registry/objects/lamp/versions/1.0.0/representations/preview.jpg: file: does not decode as image/jpeg: ${TRUNCATED}`];

  it('names the file of a preview cut short', async () => {
    expect((await load(cutPreview())).problems).toEqual(refused);
  });

  it("keeps the build's answer by content, and never takes an answer of the rule that read only headers", async () => {
    const cacheDir = join(work, 'cache');
    const preview = cutPreview();
    // What the rule that read only headers kept for these bytes: they passed.
    await mkdir(cacheDir, { recursive: true });
    const header = { format: 'jpeg', width: 768, height: 512, space: 'srgb' };
    await writeFile(fileCheckCachePath(cacheDir), JSON.stringify({ format: 'aso-file-checks/4', files: {}, gltf: {}, images: { [`${sri(preview.bytes)} image/jpeg`]: { problem: null, header } } }));
    expect(await load(preview, cacheDir)).toEqual({ problems: refused, imageHits: 0 });
    const saved = Object.keys((JSON.parse(await readFile(fileCheckCachePath(cacheDir), 'utf8')) as { images: Record<string, unknown> }).images);
    expect(saved).toContain(`${sri(preview.bytes)} image/jpeg decoded`);
    expect(saved.filter((key) => !key.endsWith(' decoded'))).toEqual([]);
    // The next build takes the decoding rule's answers (the preview's, the fixture's PNG's) without decoding again.
    expect(await load(preview, cacheDir)).toEqual({ problems: refused, imageHits: saved.length });
  });
});
