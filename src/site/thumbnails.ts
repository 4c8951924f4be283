/** Catalog thumbnails made with sharp from a version's preview or first image, cached by content hash. */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { Manifest, Representation } from '../core/types.ts';
import { sriToHex } from '../core/sri.ts';

/** Width of catalog thumbnails in CSS pixels. */
export const THUMBNAIL_WIDTH = 320;

/** One thumbnail: a modern format and a JPEG fallback of the same size. */
export interface Thumbnail {
  width: number;
  height: number;
  webp: string;
  jpeg: string;
}

/** Site path of a thumbnail file: content-keyed, so it never changes under its name. */
export function thumbnailSitePath(file: string): string {
  return `thumbnails/${basename(file)}`;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/avif']);

/** The image a thumbnail is made from: the preview, else the first image representation. */
export function thumbnailSource(manifest: Manifest): Representation | undefined {
  const candidates = [manifest.preview, ...manifest.representations].filter((r): r is Representation => !!r);
  return candidates.find((r) => IMAGE_TYPES.has(r.mediaType));
}

const inFlight = new Map<string, Promise<Thumbnail>>();

/** Makes (or reuses) the thumbnail of an image file whose verified hash is `hash`; the same image is made once. */
export function makeThumbnail(source: string, hash: string, cache: string): Promise<Thumbnail> {
  const id = `${cache}\u0000${hash}`;
  let pending = inFlight.get(id);
  if (!pending) {
    pending = makeThumbnailOnce(source, hash, cache);
    inFlight.set(id, pending);
  }
  return pending;
}

/**
 * The thumbnail of an image, or null when sharp cannot make one (pixels the check's header test could not see, say):
 * `warn` names the file and why, and the version's pages show no thumbnail rather than the build stopping.
 */
export async function thumbnailOrNull(source: string, hash: string, cache: string, warn: (message: string) => void): Promise<Thumbnail | null> {
  try {
    return await makeThumbnail(source, hash, cache);
  } catch (error) {
    warn(`${source}: no thumbnail: ${(error as Error).message}`);
    return null;
  }
}

async function makeThumbnailOnce(source: string, hash: string, cache: string): Promise<Thumbnail> {
  const key = `${sriToHex(hash)}-w${THUMBNAIL_WIDTH}`;
  const dir = join(cache, 'thumbnails');
  const meta = join(dir, `${key}.json`);
  const webp = join(dir, `${key}.webp`);
  const jpeg = join(dir, `${key}.jpg`);
  // The record keeps only the size: the files are found from wherever the cache is now (it may have moved).
  const cached = await readCachedSize(meta, [webp, jpeg]);
  if (cached) return { ...cached, webp, jpeg };
  await mkdir(dir, { recursive: true });
  const resized = sharp(source).rotate().resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true });
  // The two encodes run at once in sharp's thread pool.
  const [info] = await Promise.all([
    resized.clone().webp({ quality: 78 }).toFile(webp),
    resized.clone().flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true }).toFile(jpeg),
  ]);
  // Written last and in place: a torn or missing record only means the thumbnail is made again.
  await writeFile(meta, JSON.stringify({ width: info.width, height: info.height }));
  return { width: info.width, height: info.height, webp, jpeg };
}

/** The size a thumbnail record holds, when the record is whole and both image files are still there. */
async function readCachedSize(meta: string, files: string[]): Promise<{ width: number; height: number } | undefined> {
  try {
    const { width, height } = JSON.parse(await readFile(meta, 'utf8')) as { width: unknown; height: unknown };
    if (!Number.isInteger(width) || !Number.isInteger(height)) return undefined;
    await Promise.all(files.map((f) => access(f)));
    return { width: width as number, height: height as number };
  } catch {
    return undefined;
  }
}
