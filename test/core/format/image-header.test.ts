import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32, readImageHeader, type ImageHeader } from '@aso-registry/core/format/image-header';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const FIELDS = ['format', 'compression', 'width', 'height', 'orientation', 'pages', 'space'] as const;

/** sharp's answer for `bytes`, the fields the reader reports, or its error. */
async function sharpHeader(bytes: Uint8Array): Promise<ImageHeader | { error: string }> {
  try {
    const meta = await sharp(bytes).metadata();
    return Object.fromEntries(FIELDS.flatMap((f) => (meta[f] === undefined ? [] : [[f, meta[f]]])));
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Images from real encoders: libjpeg-turbo, libspng, libwebp and libheif through sharp, in the variants people publish. */
async function encoded(): Promise<Record<string, Buffer>> {
  const rgb = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 10 } } });
  const rgba = () => sharp({ create: { width: 33, height: 17, channels: 4, background: { r: 20, g: 130, b: 210, alpha: 0.5 } } });
  const frames = await Promise.all(['red', 'blue'].map((c) => sharp({ create: { width: 20, height: 24, channels: 3, background: c } }).png().toBuffer()));
  const out: Record<string, Buffer> = {
    'jpeg baseline': await rgb().jpeg().toBuffer(),
    'jpeg progressive': await rgb().jpeg({ progressive: true }).toBuffer(),
    'jpeg 4:4:4': await rgb().jpeg({ chromaSubsampling: '4:4:4' }).toBuffer(),
    'jpeg mozjpeg': await rgb().jpeg({ mozjpeg: true }).toBuffer(),
    'jpeg grey': await rgb().toColourspace('b-w').jpeg().toBuffer(),
    'jpeg cmyk': await rgb().toColourspace('cmyk').jpeg().toBuffer(),
    'jpeg icc': await rgb().withIccProfile('p3').jpeg().toBuffer(),
    'png rgb': await rgb().png().toBuffer(),
    'png rgba': await rgba().png().toBuffer(),
    'png grey': await rgb().toColourspace('b-w').png().toBuffer(),
    'png grey alpha': await rgba().toColourspace('b-w').png().toBuffer(),
    'png 16-bit': await rgb().toColourspace('rgb16').png().toBuffer(),
    'png grey 16-bit': await rgb().toColourspace('grey16').png().toBuffer(),
    'png palette': await rgb().png({ palette: true }).toBuffer(),
    'png palette 2 colours': await rgba().png({ palette: true, colours: 2 }).toBuffer(),
    'png interlaced': await rgb().png({ progressive: true }).toBuffer(),
    'png icc': await rgb().withIccProfile('p3').png().toBuffer(),
    'webp lossy': await rgb().webp().toBuffer(),
    'webp lossy alpha': await rgba().webp().toBuffer(),
    'webp lossless': await rgb().webp({ lossless: true }).toBuffer(),
    'webp lossless alpha': await rgba().webp({ lossless: true }).toBuffer(),
    'webp icc': await rgb().withIccProfile('p3').webp().toBuffer(),
    'webp animated': await sharp(frames, { join: { animated: true } }).webp().toBuffer(),
    avif: await rgb().avif().toBuffer(),
    gif: await rgb().gif().toBuffer(),
  };
  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    out[`jpeg orientation ${orientation}`] = await rgb().withMetadata({ orientation }).jpeg().toBuffer();
    out[`png orientation ${orientation}`] = await rgb().withMetadata({ orientation }).png().toBuffer();
    out[`webp orientation ${orientation}`] = await rgb().withMetadata({ orientation }).webp().toBuffer();
  }
  out['jpeg exif without orientation'] = await rgb().withExif({ IFD0: { Software: 'test' } }).jpeg().toBuffer();
  return out;
}

/** Every image of the corpus: the encoders above, PngSuite (valid and broken PNGs), camera-style EXIF headers, the sample registry's photos. */
async function corpus(): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>(Object.entries(await encoded()));
  for (const dir of ['pngsuite/png', 'exif-orientation']) {
    for (const name of readdirSync(join(FIXTURES, dir)).filter((n) => /\.(png|jpg)$/.test(n))) images.set(`${dir}/${name}`, readFileSync(join(FIXTURES, dir, name)));
  }
  const registry = join(import.meta.dirname, '..', '..', '..', 'registry', 'objects');
  for (const entry of readdirSync(registry, { recursive: true, encoding: 'utf8' }).filter((p) => /\.(jpe?g|png|webp)$/.test(p))) {
    images.set(`registry/${entry}`, readFileSync(join(registry, entry)));
  }
  return images;
}

describe('readImageHeader', () => {
  let images: Map<string, Uint8Array>;
  const answers = new Map<string, { ours: ImageHeader | null; theirs: ImageHeader | { error: string } }>();
  beforeAll(async () => {
    images = await corpus();
    for (const [name, bytes] of images) answers.set(name, { ours: readImageHeader(bytes), theirs: await sharpHeader(bytes) });
  }, 60_000);

  it("gives sharp's answer for every image it reads, and reads most of them", () => {
    let read = 0;
    for (const [name, { ours, theirs }] of answers) {
      if (ours === null) continue;
      read++;
      expect({ name, header: theirs }).toEqual({ name, header: ours });
    }
    expect(images.size).toBeGreaterThan(220);
    expect(read).toBeGreaterThan(images.size / 2);
  });

  it('reads the plain cases: 8-bit JPEGs, PNGs of every colour type, still WebPs, with their orientation', () => {
    const plain = [
      'jpeg baseline', 'jpeg progressive', 'jpeg 4:4:4', 'jpeg mozjpeg', 'jpeg grey', 'jpeg icc', 'jpeg exif without orientation',
      'png rgb', 'png rgba', 'png grey', 'png grey alpha', 'png 16-bit', 'png grey 16-bit', 'png palette', 'png interlaced', 'png icc',
      'webp lossy', 'webp lossy alpha', 'webp lossless', 'webp lossless alpha', 'webp icc',
      ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((o) => [`jpeg orientation ${o}`, `png orientation ${o}`, `exif-orientation/Landscape_${o}.jpg`, `exif-orientation/Portrait_${o}.jpg`]),
    ];
    for (const name of plain) expect({ name, read: answers.get(name)!.ours !== null }).toEqual({ name, read: true });
    expect(answers.get('jpeg orientation 6')!.ours).toEqual({ format: 'jpeg', width: 40, height: 30, orientation: 6, space: 'srgb' });
    expect(answers.get('png grey 16-bit')!.ours).toMatchObject({ format: 'png', space: 'grey16' });
    expect(answers.get('exif-orientation/Portrait_5.jpg')!.ours).toMatchObject({ format: 'jpeg', orientation: 5 });
  });

  it('leaves to sharp what it is not sure of: other formats, CMYK, animation, EXIF in a WebP, an orientation out of range, broken files', () => {
    const unsure = ['jpeg cmyk', 'webp animated', 'avif', 'gif', 'webp orientation 6', 'exif-orientation/Landscape_0.jpg', 'exif-orientation/Portrait_0.jpg'];
    for (const name of unsure) expect({ name, ours: answers.get(name)!.ours }).toEqual({ name, ours: null });
    // PngSuite's broken files (`x*`): sharp reads the headers of some, never this reader.
    const broken = [...answers.keys()].filter((n) => n.startsWith('pngsuite/png/x'));
    expect(broken.length).toBeGreaterThan(10);
    for (const name of broken) expect({ name, ours: answers.get(name)!.ours }).toEqual({ name, ours: null });
  });

  it('answers null for a header cut short, and for bytes that are no image', () => {
    const jpeg = images.get('jpeg orientation 3')!;
    const png = images.get('png rgb')!;
    const webp = images.get('webp lossy')!;
    for (const bytes of [jpeg, png, webp]) {
      for (const cut of [1, 4, 9, 13, 20, 30]) expect(readImageHeader(bytes.subarray(0, cut))).toBeNull();
    }
    expect(readImageHeader(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(readImageHeader(new Uint8Array(0))).toBeNull();
  });

  it("rejects a PNG whose header chunk's CRC is wrong, and a WebP whose RIFF length is not its size", () => {
    const png = Uint8Array.from(images.get('png rgb')!);
    png[20] = png[20]! ^ 1; // a byte of IHDR's width
    expect(readImageHeader(png)).toBeNull();
    const webp = Uint8Array.from(images.get('webp lossless')!);
    expect(readImageHeader(Uint8Array.from([...webp, 0, 0]))).toBeNull();
  });

  it('computes the CRC-32 of PNG chunks', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});
