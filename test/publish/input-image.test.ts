import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describe as describeImage, isUrl, readInputImage } from '../../src/publish/input-image.ts';
import { PublishError } from '../../src/publish/publish-error.ts';
import { startImageServer } from '../jobs/helpers.ts';

async function failure(call: Promise<unknown>): Promise<string> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublishError);
  return (error as Error).message;
}

describe('readInputImage', () => {
  let dir: string;
  let png: Uint8Array;
  let server: Awaited<ReturnType<typeof startImageServer>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-input-test-'));
    png = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } }).png().toBuffer());
    await mkdir(join(dir, 'photos'));
    await writeFile(join(dir, 'photos', 'chair.png'), png);
    await writeFile(join(dir, 'notes.txt'), 'not an image');
    server = await startImageServer((req, res) => {
      if (req.url?.startsWith('/img/')) return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png));
      if (req.url === '/text') return res.writeHead(200).end('hello');
      res.writeHead(404, 'Not Found').end();
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file relative to the folder, recording only its name', async () => {
    expect(await readInputImage('photos/chair.png', dir)).toEqual({ bytes: png, filename: 'chair.png', label: 'chair.png', format: 'png', width: 40, height: 30 });
  });

  it('fetches a URL, recording it without query or fragment, and naming the upload after its last segment', async () => {
    const url = `${server.url}/img/oak%20chair.png?token=secret#x`;
    const image = await readInputImage(url, dir);
    expect(image).toMatchObject({ filename: 'oak chair.png', label: `${server.url}/img/oak%20chair.png`, url, format: 'png', width: 40 });
    expect(image.bytes).toEqual(png);
    expect((await readInputImage(`${server.url}/img/`, dir)).filename).toBe('image');
  });

  it('names what cannot be read', async () => {
    expect(await failure(readInputImage('  ', dir))).toBe('--image is empty; give a path to an image file or an http(s) URL');
    expect(await failure(readInputImage('missing.png', dir))).toBe('--image missing.png: cannot be read (no such file)');
    expect(await failure(readInputImage('photos', dir))).toBe('--image photos: is not a file');
    expect(await failure(readInputImage('notes.txt', dir))).toMatch(/^--image notes\.txt: is not a readable image \(.*\); use a PNG, JPEG or WebP file$/);
    expect(await failure(readInputImage(`${server.url}/gone.png`, dir))).toBe(`--image ${server.url}/gone.png: the server answered 404 Not Found`);
    expect(await failure(readInputImage(`${server.url}/text`, dir))).toMatch(new RegExp(`^--image ${server.url}/text: is not a readable image`));
    const gone = await startImageServer(() => {});
    await gone.close();
    const closed = `${gone.url}/a.png`;
    expect(await failure(readInputImage(closed, dir))).toBe(`--image ${closed}: cannot be fetched (ECONNREFUSED)`);
  });
});

describe('isUrl', () => {
  it('tells http(s) URLs from paths', () => {
    expect([isUrl('https://x.test/a.png'), isUrl('HTTP://x.test/a'), isUrl('photos/a.png'), isUrl('file:///a.png'), isUrl('ftp://x/a')]).toEqual([true, true, false, false, false]);
  });
});

describe('describe', () => {
  it('gives the format and size, and refuses empty bytes and formats it does not read', async () => {
    const webp = new Uint8Array(await sharp({ create: { width: 5, height: 7, channels: 3, background: '#fff' } }).webp().toBuffer());
    expect(await describeImage(webp, 'x')).toEqual({ format: 'webp', width: 5, height: 7 });
    expect(await failure(describeImage(new Uint8Array(), 'the upload'))).toBe('the upload: is empty');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    expect(await failure(describeImage(svg, 'logo.svg'))).toBe('logo.svg: is not a readable image (format svg); use a PNG, JPEG or WebP file');
  });
});
