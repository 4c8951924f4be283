/** Catalog thumbnails made with sharp from a version's preview or first image, cached by content hash. */
import { access, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { Manifest, Representation } from '../core/types.ts';
import { writeFileAtomic } from '../io/atomic-file.ts';
import { readSmallFile } from '../io/read-small-file.ts';
import type { RegistryVersion } from '../registry/registry-model.ts';
import { sriToHex } from '../core/sri.ts';

/** Width of catalog thumbnails in CSS pixels. */
export const THUMBNAIL_WIDTH = 320;

/**
 * libwebp's effort (0-6, default 4). On the sample registry's images 2 took a quarter less CPU than 4 (10.2 ms against
 * 13.7 ms an image) for files 5% larger; 3 saved nothing, 1 and 0 made files a third to a half larger.
 */
const WEBP_EFFORT = 2;

/**
 * The name of the thumbnail of the image whose hash is `hash`: its content and how it was made. Thumbnails are served as
 * immutable (core/host-headers.ts), so thumbnails made another way (another size, effort or quality) take another name.
 */
export function thumbnailKey(hash: string): string {
  return `${sriToHex(hash)}-w${THUMBNAIL_WIDTH}-e${WEBP_EFFORT}`;
}

/**
 * One thumbnail: a single WebP file (every browser that runs the viewer reads WebP, so no fallback format is made),
 * with its real size. Transparency in the source is kept: WebP has an alpha channel.
 */
export interface Thumbnail {
  width: number;
  height: number;
  /** The WebP file in the cache. */
  file: string;
}

/** Site path of a thumbnail file: content-keyed, so it never changes under its name. */
export function thumbnailSitePath(file: string): string {
  return `thumbnails/${basename(file)}`;
}

/**
 * The shape of a cache record. A new value makes every cached thumbnail be made again: records of an older build
 * (which made a WebP and a JPEG and wrote no `format`) are never read as this one's.
 */
const RECORD_FORMAT = 'thumbnail/2 webp';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/avif']);

/** The image a thumbnail is made from: the preview, else the first image representation. */
export function thumbnailSource(manifest: Manifest): Representation | undefined {
  const candidates = [manifest.preview, ...manifest.representations].filter((r): r is Representation => !!r);
  return candidates.find((r) => IMAGE_TYPES.has(r.mediaType));
}

/** The file a version's thumbnail is made from, with its verified hash, or undefined when the version has no image. */
export function thumbnailSourceFile(version: RegistryVersion): { path: string; hash: string } | undefined {
  const image = thumbnailSource(version.manifest);
  const file = image && version.files.find((f) => f.rep.id === image.id && f.rep.hash === image.hash);
  return file && { path: file.path, hash: image.hash };
}

/**
 * Each image on one libvips thread: thumbnails are made several at once (see load-site.ts), and a thread per core for
 * each of them spent more CPU waking threads than resizing small images (about 15% more over 2,000 images, 2 cores).
 */
sharp.concurrency(1);

/** Thumbnails being made, by cache and image hash: an image two versions share is made once. */
const inFlight = new Map<string, Promise<Thumbnail>>();

/**
 * The cache's index of its thumbnail records (`thumbnails/index.json`): a build reads one file, and lists the folder
 * once, instead of reading a record and looking for an image per version. The records stay the source of truth: a
 * thumbnail the index does not list, or whose image is gone, is looked up as before.
 */
const INDEX_FILE = 'index.json';

/** The index of a cache's thumbnails as one build reads and extends it. */
export interface ThumbnailIndex {
  records: Map<string, { width: number; height: number }>;
  /** The names in the cache's folder when the build began. */
  files: Set<string>;
  /** Records this build added to the index. */
  added: number;
}

/** Reads the index of `cache`'s thumbnails (an empty one when there is none) and lists the cache's folder. */
export async function openThumbnailIndex(cache: string): Promise<ThumbnailIndex> {
  const dir = join(cache, 'thumbnails');
  const records = new Map<string, { width: number; height: number }>();
  try {
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as { format?: unknown; records?: Record<string, unknown> };
    if (index.format === RECORD_FORMAT && index.records && typeof index.records === 'object') {
      for (const [key, size] of Object.entries(index.records)) {
        if (Array.isArray(size) && Number.isInteger(size[0]) && Number.isInteger(size[1])) records.set(key, { width: size[0] as number, height: size[1] as number });
      }
    }
  } catch {
    // No index yet, or a torn one: every thumbnail is looked up by its record.
  }
  const files = new Set(await readdir(dir).catch(() => [] as string[]));
  return { records, files, added: 0 };
}

/** Writes `index` into `cache` when this build found or made thumbnails it did not list. */
export async function saveThumbnailIndex(cache: string, index: ThumbnailIndex): Promise<void> {
  if (!index.added) return;
  const records = Object.fromEntries([...index.records].map(([key, size]) => [key, [size.width, size.height]]));
  await mkdir(join(cache, 'thumbnails'), { recursive: true });
  await writeFileAtomic(join(cache, 'thumbnails', INDEX_FILE), JSON.stringify({ format: RECORD_FORMAT, records }));
}

/** Makes (or reuses) the thumbnail of an image file whose verified hash is `hash`; the same image is made once. */
export function makeThumbnail(source: string, hash: string, cache: string, index?: ThumbnailIndex): Promise<Thumbnail> {
  const id = `${cache}\u0000${hash}`;
  let pending = inFlight.get(id);
  if (!pending) {
    pending = makeThumbnailOnce(source, hash, cache, index ?? { records: new Map(), files: new Set(), added: 0 });
    inFlight.set(id, pending);
    // Only while it is being made: once made, the index answers, and a build of 100,000 images keeps no map of them.
    void pending.then(
      () => inFlight.delete(id),
      () => inFlight.delete(id),
    );
  }
  return pending;
}

/**
 * The thumbnail of an image, or null when sharp cannot make one (pixels the check's header test could not see, say):
 * `warn` names the file and why, and the version's pages show no thumbnail rather than the build stopping.
 */
export async function thumbnailOrNull(source: string, hash: string, cache: string, warn: (message: string) => void, index?: ThumbnailIndex): Promise<Thumbnail | null> {
  try {
    return await makeThumbnail(source, hash, cache, index);
  } catch (error) {
    warn(`${source}: no thumbnail: ${(error as Error).message}`);
    return null;
  }
}

async function makeThumbnailOnce(source: string, hash: string, cache: string, index: ThumbnailIndex): Promise<Thumbnail> {
  const key = thumbnailKey(hash);
  const dir = join(cache, 'thumbnails');
  const meta = join(dir, `${key}.json`);
  const file = join(dir, `${key}.webp`);
  const listed = index.records.get(key);
  if (listed && index.files.has(basename(file))) return { ...listed, file };
  // The record keeps only the size: the file is found from wherever the cache is now (it may have moved).
  const cached = await readCachedRecord(meta, file);
  if (cached.size) {
    index.records.set(key, cached.size);
    index.added++;
    return { ...cached.size, file };
  }
  await mkdir(dir, { recursive: true });
  // A small image is read in one piece: libvips reading a file itself opens and seeks it many times over.
  const info = await sharp((await readSmallFile(source)) ?? source).rotate().resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: 78, effort: WEBP_EFFORT }).toFile(file);
  // An older build's record came with a JPEG fallback beside it, which nothing reads any more.
  if (cached.stale) await rm(join(dir, `${key}.jpg`), { force: true });
  // Written last and in place: a torn or missing record only means the thumbnail is made again.
  await writeFile(meta, JSON.stringify({ format: RECORD_FORMAT, width: info.width, height: info.height }));
  index.records.set(key, { width: info.width, height: info.height });
  index.files.add(basename(file));
  index.added++;
  return { width: info.width, height: info.height, file };
}

/**
 * The size a thumbnail record holds when the record is whole, of this format, and its image file is still there;
 * `stale` when a record is there but is not one (an older build's, say).
 */
async function readCachedRecord(meta: string, file: string): Promise<{ size?: { width: number; height: number }; stale: boolean }> {
  let record: { format?: unknown; width?: unknown; height?: unknown };
  try {
    record = JSON.parse(await readFile(meta, 'utf8')) as typeof record;
  } catch {
    return { stale: false };
  }
  const { format, width, height } = record ?? {};
  if (format !== RECORD_FORMAT || !Number.isInteger(width) || !Number.isInteger(height)) return { stale: true };
  try {
    await access(file);
  } catch {
    return { stale: false };
  }
  return { size: { width: width as number, height: height as number }, stale: false };
}
