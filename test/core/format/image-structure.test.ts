import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32 } from '@aso-registry/core/format/image-header';
import { imageStructureProblem, TRUNCATED } from '@aso-registry/core/format/image-structure';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const REGISTRY = join(import.meta.dirname, '..', '..', '..', 'registry', 'objects');

/** sharp's name of the format of a file name's extension. */
const formatOf = (name: string): string => (/\.jpe?g$/.test(name) ? 'jpeg' : name.endsWith('.png') ? 'png' : 'webp');

/** Whole images from real encoders (libjpeg-turbo, mozjpeg, libspng, libwebp through sharp), PngSuite's valid files and the sample registry's. */
async function wholeImages(): Promise<Map<string, { bytes: Uint8Array; format: string }>> {
  const rgb = () => sharp({ create: { width: 61, height: 47, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
  const rgba = () => sharp({ create: { width: 33, height: 17, channels: 4, background: { r: 20, g: 130, b: 210, alpha: 0.5 } } });
  const frames = await Promise.all(['red', 'blue'].map((c) => sharp({ create: { width: 20, height: 24, channels: 3, background: c } }).png().toBuffer()));
  const encoded: Record<string, Buffer> = {
    'baseline.jpg': await rgb().jpeg().toBuffer(),
    'progressive.jpg': await rgb().jpeg({ progressive: true }).toBuffer(),
    'mozjpeg.jpg': await rgb().jpeg({ mozjpeg: true }).toBuffer(),
    'grey.jpg': await rgb().toColourspace('b-w').jpeg().toBuffer(),
    'cmyk.jpg': await rgb().toColourspace('cmyk').jpeg().toBuffer(),
    'exif.jpg': await rgb().withMetadata({ orientation: 6 }).jpeg().toBuffer(),
    'rgb.png': await rgb().png().toBuffer(),
    'rgba.png': await rgba().png().toBuffer(),
    'palette.png': await rgb().png({ palette: true }).toBuffer(),
    'interlaced.png': await rgb().png({ progressive: true }).toBuffer(),
    '16-bit.png': await rgb().toColourspace('rgb16').png().toBuffer(),
    'lossy.webp': await rgb().webp().toBuffer(),
    'lossy-alpha.webp': await rgba().webp().toBuffer(),
    'lossless.webp': await rgb().webp({ lossless: true }).toBuffer(),
    'icc.webp': await rgb().withIccProfile('p3').webp().toBuffer(),
    'animated.webp': await sharp(frames, { join: { animated: true } }).webp().toBuffer(),
  };
  const out = new Map(Object.entries(encoded).map(([name, bytes]) => [name, { bytes: new Uint8Array(bytes), format: formatOf(name) }]));
  for (const name of readdirSync(join(FIXTURES, 'pngsuite', 'png')).filter((n) => n.endsWith('.png') && !n.startsWith('x'))) {
    out.set(`pngsuite/${name}`, { bytes: readFileSync(join(FIXTURES, 'pngsuite', 'png', name)), format: 'png' });
  }
  for (const entry of readdirSync(REGISTRY, { recursive: true, encoding: 'utf8' }).filter((p) => /\.(jpe?g|png|webp)$/.test(p))) {
    out.set(`registry/${entry}`, { bytes: readFileSync(join(REGISTRY, entry)), format: formatOf(entry) });
  }
  return out;
}

/** The offset of a JPEG's first start-of-scan marker. */
function startOfScan(bytes: Uint8Array): number {
  for (let i = 2; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xda) return i;
  throw new Error('no scan');
}

/** Where each chunk of a whole PNG starts, its type and the length of its data. */
function pngChunks(bytes: Uint8Array): Array<{ at: number; type: string; length: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Array<{ at: number; type: string; length: number }> = [];
  for (let at = 8; at < bytes.length; at += 12 + view.getUint32(at)) {
    out.push({ at, type: String.fromCharCode(...bytes.subarray(at + 4, at + 8)), length: view.getUint32(at) });
  }
  return out;
}

/** A PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const body = Uint8Array.from([...new TextEncoder().encode(type), ...data]);
  const out = new Uint8Array(body.length + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(body.length + 4, crc32(body));
  return out;
}

describe('imageStructureProblem', () => {
  let images: Map<string, { bytes: Uint8Array; format: string }>;
  beforeAll(async () => {
    images = await wholeImages();
  }, 60_000);

  it('finds nothing wrong in any whole image, with or without bytes after its end', () => {
    expect(images.size).toBeGreaterThan(170);
    for (const [name, { bytes, format }] of images) {
      expect({ name, problem: imageStructureProblem(bytes, format) }).toEqual({ name, problem: null });
      // A trailer after the end of the image (a camera's, a second picture's) is not the walk's concern.
      expect({ name, problem: imageStructureProblem(Uint8Array.from([...bytes, 0xff, 0xd8, 0, 1, 2]), format) }).toEqual({ name, problem: null });
    }
  });

  it('names every JPEG and WebP cut short as truncated, wherever it is cut', () => {
    for (const [name, { bytes, format }] of images) {
      if (format === 'png') continue;
      const cuts = new Set([3, 20, bytes.length >> 2, bytes.length >> 1, bytes.length - 200, bytes.length - 2, bytes.length - 1]);
      if (format === 'jpeg') for (const k of [1, 2, 10, 100]) cuts.add(startOfScan(bytes) + k); // inside the entropy-coded data
      for (const cut of [...cuts].filter((c) => c > (format === 'webp' ? 12 : 2) && c < bytes.length)) {
        expect({ name, cut, problem: imageStructureProblem(bytes.subarray(0, cut), format) }).toEqual({ name, cut, problem: TRUNCATED });
      }
    }
  });

  it('names a PNG cut short: inside its header or its image data, and after it, before or inside its IEND chunk', () => {
    for (const [name, { bytes, format }] of images) {
      if (format !== 'png') continue;
      const n = bytes.length;
      const idat = pngChunks(bytes).filter((c) => c.type === 'IDAT');
      // Inside IHDR, right after it, and inside the first and the last chunk of image data.
      const cuts = [9, 20, 33, ...[idat[0]!, idat.at(-1)!].map((c) => c.at + 8 + Math.ceil(c.length / 2))];
      for (const cut of cuts) {
        expect({ name, cut, problem: imageStructureProblem(bytes.subarray(0, cut), format) }).toEqual({ name, cut, problem: TRUNCATED });
      }
      expect({ name, problem: imageStructureProblem(bytes.subarray(0, n - 12), format) }).toEqual({ name, problem: 'the file ends before its IEND chunk, which closes every PNG (truncated?)' });
      expect({ name, problem: imageStructureProblem(bytes.subarray(0, n - 2), format) }).toEqual({ name, problem: 'the file ends inside its IEND chunk, which closes every PNG (truncated?)' });
    }
  });

  it("names a PNG chunk whose CRC is wrong, PngSuite's among them", () => {
    const png = Uint8Array.from(images.get('rgb.png')!.bytes);
    const idat = new TextDecoder('latin1').decode(png).indexOf('IDAT') - 4;
    png[idat + 20] = png[idat + 20]! ^ 0x10;
    expect(imageStructureProblem(png, 'png')).toBe(`its "IDAT" chunk at byte ${idat} fails its CRC check (the bytes are damaged)`);
    const suite = (name: string) => readFileSync(join(FIXTURES, 'pngsuite', 'png', name));
    expect(imageStructureProblem(suite('xcsn0g01.png'), 'png')).toMatch(/^its "IDAT" chunk at byte \d+ fails its CRC check/);
    expect(imageStructureProblem(suite('xhdn0g08.png'), 'png')).toBe('its "IHDR" chunk at byte 8 fails its CRC check (the bytes are damaged)');
  });

  it('names a WebP whose chunk runs past its RIFF container', () => {
    const webp = Uint8Array.from(images.get('lossless.webp')!.bytes);
    new DataView(webp.buffer).setUint32(16, 1_000_000, true); // the VP8L chunk's length
    expect(imageStructureProblem(webp, 'webp')).toBe('its "VP8L" chunk at byte 12 runs past the end of its RIFF container (the bytes are damaged)');
  });

  it('walks stuffed bytes, restart markers and fill bytes in a scan, and tables between scans', () => {
    const segment = (marker: number, body: number[]) => [0xff, marker, 0, body.length + 2, ...body];
    const jpeg = (scan: number[]) => Uint8Array.from([0xff, 0xd8, ...segment(0xdb, [1, 2, 3]), ...segment(0xda, [1, 1, 0]), ...scan]);
    const scan = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd7, 0x78, 0xff, 0xff, ...segment(0xc4, [9, 9]), ...segment(0xda, [1, 1, 0]), 0x9a];
    expect(imageStructureProblem(jpeg([...scan, 0xff, 0xd9]), 'jpeg')).toBeNull();
    expect(imageStructureProblem(jpeg([...scan, 0xff, 0xff, 0xd9]), 'jpeg')).toBeNull();
    expect(imageStructureProblem(jpeg(scan), 'jpeg')).toBe(TRUNCATED);
    expect(imageStructureProblem(jpeg([...scan, 0xff]), 'jpeg')).toBe(TRUNCATED);
    expect(imageStructureProblem(jpeg([0x12, 0xff, 0x00]), 'jpeg')).toBe(TRUNCATED);
    // A stuffed 0xFF or a restart marker at the very end is no end of image.
    expect(imageStructureProblem(jpeg([0x12, 0xff, 0xd0]), 'jpeg')).toBe(TRUNCATED);
  });

  it('leaves to the decoder what it does not know, and says nothing of bytes that are not the format named', () => {
    const png = images.get('rgb.png')!.bytes;
    const jpeg = images.get('baseline.jpg')!.bytes;
    expect(imageStructureProblem(png, 'jpeg')).toBeNull();
    expect(imageStructureProblem(jpeg.subarray(0, 100), 'png')).toBeNull();
    expect(imageStructureProblem(jpeg.subarray(0, 100), 'heif')).toBeNull();
    // Bytes where a marker must be: what they mean is the decoder's to say.
    expect(imageStructureProblem(Uint8Array.from([0xff, 0xd8, 0x00, 0x00, 0xff, 0xd9]), 'jpeg')).toBeNull();
    // A JPEG-LS frame stuffs its scans otherwise.
    expect(imageStructureProblem(Uint8Array.from([0xff, 0xd8, 0xff, 0xf7, 0, 2]), 'jpeg')).toBeNull();
    // A PNG of chunks made here, whole, then cut before its IEND chunk: without image data, it is simply cut short.
    const signature = png.subarray(0, 8);
    const made = Uint8Array.from([...signature, ...chunk('IHDR', png.subarray(16, 29)), ...chunk('tEXt', new TextEncoder().encode('a\0b')), ...chunk('IEND', new Uint8Array(0))]);
    expect(imageStructureProblem(made, 'png')).toBeNull();
    expect(imageStructureProblem(made.subarray(0, made.length - 12), 'png')).toBe(TRUNCATED);
  });
});
