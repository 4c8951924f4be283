/** Catalog thumbnails made with sharp from a version's preview or first image, cached by content hash. */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { Manifest, Representation } from '@aso-registry/core/format/types';
import { writeFileAtomic } from '../../io/atomic-file.ts';
import { readSmallFile } from '../../io/read-small-file.ts';
import type { RegistryVersion } from '../../registry/registry-model.ts';
import { sriToHex } from '@aso-registry/core/format/sri';
import { representationPath } from '@aso-registry/core/format/paths';
import { readImageHeader, type ImageHeader } from '@aso-registry/core/format/image-header';
import { AS_IS_MAX_BYTES, showAsIs } from './thumbnail-as-is.ts';

/** The largest picture box of a catalog card, in CSS pixels: a thumbnail fits inside it, never larger than its source. */
export const THUMBNAIL_BOX = { width: 320, height: 240 } as const;

/** The box of the thumbnail for dense screens: twice the card's. */
export const DENSE_THUMBNAIL_BOX = { width: THUMBNAIL_BOX.width * 2, height: THUMBNAIL_BOX.height * 2 } as const;

/** A thumbnail for dense screens is made only when the source holds at least this many times the pixels across of the 1x one. */
const DENSE_MIN_GAIN = 1.5;

/**
 * libwebp's effort (0-6, default 4): 2 costs clearly less CPU than 4 for slightly larger files, and lower efforts make
 * much larger files (see docs/decisions/0003-webp-thumbnails.md).
 */
const WEBP_EFFORT = 2;

/** libwebp's quality of a thumbnail, and of its twin for dense screens, whose smaller pixels hide more loss. */
const QUALITY = 78;
const DENSE_QUALITY = 60;

/**
 * The name of the thumbnail of the image whose hash is `hash`: its content and how it was made. Thumbnails are served as
 * immutable (core/documents/host-headers.ts), so thumbnails made another way (another size, effort or quality) take
 * another name.
 */
export function thumbnailKey(hash: string): string {
  return boxKey(hash, THUMBNAIL_BOX);
}

/** The name of the thumbnail for dense screens of the image whose hash is `hash` (see {@link thumbnailKey}). */
export function denseThumbnailKey(hash: string): string {
  return boxKey(hash, DENSE_THUMBNAIL_BOX);
}

function boxKey(hash: string, box: Box): string {
  return `${sriToHex(hash)}-${box.width}x${box.height}-e${WEBP_EFFORT}`;
}

/** A width and a height in pixels. */
interface Box {
  width: number;
  height: number;
}

/**
 * One thumbnail: a WebP file (every browser that runs the viewer reads WebP, so no fallback format is made) that fits
 * the card's picture box, with its real size, and a second one for dense screens when the source has the pixels for it.
 * Transparency in the source is kept: WebP has an alpha channel. A small image is its own thumbnail
 * (thumbnail-as-is.ts): then there is no file, and the pages show the version's own image.
 */
export interface Thumbnail {
  width: number;
  height: number;
  /** The WebP file in the cache, or null when the source image is shown as it is. */
  file: string | null;
  /** The WebP for dense screens (at most twice the size), or null when the source is not large enough for one. */
  dense: (Box & { file: string }) | null;
}

/** Site path of a thumbnail file: content-keyed, so it never changes under its name. */
export function thumbnailSitePath(file: string): string {
  return `thumbnails/${basename(file)}`;
}

/**
 * The shape of the cache's index. A new value makes the index of an older build be ignored: its thumbnails are then
 * found by their files (see `makeThumbnailOnce`).
 */
const RECORD_FORMAT = 'thumbnail/5 boxed webp, dense webp or as-is';
// A change to the rule of thumbnail-as-is.ts changes what the records mean: it takes a new format.

/** The mark of an index record whose image is shown as it is (no WebP file). */
const AS_IS = 'as-is';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/avif']);

/** The image a thumbnail is made from: the preview, else the first image representation. */
export function thumbnailSource(manifest: Manifest): Representation | undefined {
  const candidates = [manifest.preview, ...manifest.representations].filter((r): r is Representation => !!r);
  return candidates.find((r) => IMAGE_TYPES.has(r.mediaType));
}

/** An image a thumbnail is made from: its file, its verified hash and, when the check read it, its header. */
export interface ThumbnailImage {
  path: string;
  hash: string;
  /** The header the check read from these very bytes (sharp is then not asked again). */
  header?: ImageHeader;
}

/** The image a version's thumbnail is made from, with the site path it is published at, or undefined when the version has no image. */
export function thumbnailSourceFile(version: RegistryVersion): (ThumbnailImage & { sitePath: string }) | undefined {
  const image = thumbnailSource(version.manifest);
  const file = image && version.files.find((f) => f.rep.id === image.id && f.rep.hash === image.hash);
  const { id, version: v } = version.manifest;
  return file && { path: file.path, sitePath: representationPath(id, v, image.id, image.format), hash: image.hash, ...(file.image ? { header: file.image } : {}) };
}

/**
 * Each image on one libvips thread: thumbnails are made several at once (see load-site.ts), and a thread per core for
 * each of them spends more CPU waking threads than resizing small images (see docs/decisions/0003-webp-thumbnails.md).
 */
sharp.concurrency(1);

/** Thumbnails being made, by cache and image hash: an image two versions share is made once. */
const inFlight = new Map<string, Promise<Thumbnail>>();

/**
 * The cache's index of its thumbnails' sizes (`thumbnails/index.json`): a build reads one file, and lists the folder
 * once, instead of looking at an image per version. The WebP files stay the source of truth: a thumbnail the index
 * does not list is read from its file's header, and one whose file is gone is made again.
 */
const INDEX_FILE = 'index.json';

/** A thumbnail's size, whether its image is shown as it is, and the size of its dense twin when it has one. */
interface ThumbnailRecord {
  width: number;
  height: number;
  asIs: boolean;
  dense: Box | null;
}

/** The index of a cache's thumbnails as one build reads and extends it. */
export interface ThumbnailIndex {
  records: Map<string, ThumbnailRecord>;
  /** The names in the cache's folder when the build began. */
  files: Set<string>;
  /** Records this build added to the index. */
  added: number;
}

/**
 * Reads the index of `cache`'s thumbnails (an empty one when there is none) and lists the cache's folder, removing
 * what is not a thumbnail of this build's kind.
 */
export async function openThumbnailIndex(cache: string): Promise<ThumbnailIndex> {
  const dir = join(cache, 'thumbnails');
  const records = new Map<string, ThumbnailRecord>();
  try {
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as { format?: unknown; records?: Record<string, unknown> };
    if (index.format === RECORD_FORMAT && index.records && typeof index.records === 'object') {
      for (const [key, size] of Object.entries(index.records)) {
        const record = readRecord(size);
        if (record) records.set(key, record);
      }
    }
  } catch {
    // No index yet, or a torn one: every thumbnail is looked up by its file.
  }
  const files = new Set<string>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    // What older builds left (a record per thumbnail, a JPEG fallback) and what a stopped build left half written.
    if (leftOver(name)) rmSync(join(dir, name), { force: true });
    else files.add(name);
  }
  // Made here, once, rather than before each thumbnail.
  mkdirSync(dir, { recursive: true });
  return { records, files, added: 0 };
}

/** A record of the index as saved: `[width, height]`, `[width, height, "as-is"]` or `[width, height, denseWidth, denseHeight]`. */
function readRecord(size: unknown): ThumbnailRecord | undefined {
  if (!Array.isArray(size) || !size.slice(0, 2).every(Number.isInteger)) return undefined;
  const [width, height] = size as [number, number];
  if (size.length === 2) return { width, height, asIs: false, dense: null };
  if (size.length === 3 && size[2] === AS_IS) return { width, height, asIs: true, dense: null };
  if (size.length === 4 && size.slice(2).every(Number.isInteger)) return { width, height, asIs: false, dense: { width: size[2] as number, height: size[3] as number } };
  return undefined;
}

/**
 * Whether a file in the thumbnails' folder is left over: a record or a JPEG fallback of an older build, or a thumbnail
 * a process that is gone was writing (another build sharing the cache may be writing its own right now).
 */
function leftOver(name: string): boolean {
  if (name.endsWith('.jpg') || (name.endsWith('.json') && name !== INDEX_FILE)) return true;
  const writer = /\.(\d+)-\d+\.partial$/.exec(name);
  if (!writer) return false;
  try {
    process.kill(Number(writer[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Writes `index` into `cache` when this build found or made thumbnails it did not list. */
export async function saveThumbnailIndex(cache: string, index: ThumbnailIndex): Promise<void> {
  if (!index.added) return;
  const records = Object.fromEntries(
    [...index.records].map(([key, r]) => [key, r.asIs ? [r.width, r.height, AS_IS] : r.dense ? [r.width, r.height, r.dense.width, r.dense.height] : [r.width, r.height]]),
  );
  await mkdir(join(cache, 'thumbnails'), { recursive: true });
  await writeFileAtomic(join(cache, 'thumbnails', INDEX_FILE), JSON.stringify({ format: RECORD_FORMAT, records }));
}

/** An index for one thumbnail, when the caller has none: it lists the thumbnail's files that are in the cache. */
function oneThumbnailIndex(cache: string, hash: string): ThumbnailIndex {
  const names = [`${thumbnailKey(hash)}.webp`, `${denseThumbnailKey(hash)}.webp`];
  const dir = join(cache, 'thumbnails');
  mkdirSync(dir, { recursive: true });
  return { records: new Map(), files: new Set(names.filter((name) => existsSync(join(dir, name)))), added: 0 };
}

/** Makes (or reuses) the thumbnail of an image file; the same image (by its verified hash) is made once. */
export function makeThumbnail(image: ThumbnailImage, cache: string, index?: ThumbnailIndex): Promise<Thumbnail> {
  const id = `${cache}\u0000${image.hash}`;
  let pending = inFlight.get(id);
  if (!pending) {
    pending = makeThumbnailOnce(image, cache, index ?? oneThumbnailIndex(cache, image.hash));
    inFlight.set(id, pending);
    // Only while it is being made: once made, the index answers, so a large build keeps no map of every image.
    void pending.then(
      () => inFlight.delete(id),
      () => inFlight.delete(id),
    );
  }
  return pending;
}

/**
 * The thumbnail of an image, or null when sharp cannot make one (a file changed since the check decoded it, say):
 * `warn` names the file and why, and the version's pages show no thumbnail rather than the build stopping.
 */
export async function thumbnailOrNull(image: ThumbnailImage, cache: string, warn: (message: string) => void, index?: ThumbnailIndex): Promise<Thumbnail | null> {
  try {
    return await makeThumbnail(image, cache, index);
  } catch (error) {
    warn(`${image.path}: no thumbnail: ${(error as Error).message}`);
    return null;
  }
}

/** Thumbnails written so far under a temporary name, for unique names. */
let written = 0;

/** The size of an image drawn upright (EXIF orientations 5 to 8 turn it a quarter). */
function upright(header: { width?: number | undefined; height?: number | undefined; orientation?: number | undefined }): Box | null {
  if (!header.width || !header.height) return null;
  return (header.orientation ?? 1) >= 5 ? { width: header.height, height: header.width } : { width: header.width, height: header.height };
}

/** Whether a thumbnail for dense screens is worth making for an upright source of `size`: it must hold clearly more pixels than the 1x one. */
export function wantsDense(size: Box): boolean {
  const scale = Math.min(1, THUMBNAIL_BOX.width / size.width, THUMBNAIL_BOX.height / size.height);
  return scale * DENSE_MIN_GAIN <= 1;
}

/**
 * Makes a thumbnail, or finds it in the cache, whose folder was made when the index was opened. Everything but the
 * image work is synchronous, so that a thumbnail takes one turn of a busy event loop rather than one per step. Each WebP
 * is written under a temporary name and renamed, the dense one first, so a file under a thumbnail's name is always
 * whole, its header says its size when the index does not, and a 1x file in the cache means its dense twin, when the
 * rule wants one, is there too. Whether a small image is shown as it is depends on its bytes alone, never on what the
 * cache holds: a cache made before that rule, holding a WebP of it, gives the site a build without a cache gives.
 */
async function makeThumbnailOnce(image: ThumbnailImage, cache: string, index: ThumbnailIndex): Promise<Thumbnail> {
  const { path: source, hash } = image;
  const key = thumbnailKey(hash);
  const dir = join(cache, 'thumbnails');
  const name = `${key}.webp`;
  const file = join(dir, name);
  const denseName = `${denseThumbnailKey(hash)}.webp`;
  const denseFile = join(dir, denseName);
  // The index of this format holds what the rule below decided: either answer holds without reading the image.
  const listed = index.records.get(key);
  if (listed?.asIs) return { width: listed.width, height: listed.height, file: null, dense: null };
  if (listed && index.files.has(name) && (!listed.dense || index.files.has(denseName))) {
    return { width: listed.width, height: listed.height, file, dense: listed.dense && { ...listed.dense, file: denseFile } };
  }
  // A small image is read in one piece: libvips reading a file itself opens and seeks it many times over.
  const bytes = await readSmallFile(source);
  // The check read the header of these bytes (their hash is the one it verified): sharp need not read it again.
  let header = image.header ?? (bytes && readImageHeader(bytes)) ?? undefined;
  if (bytes && bytes.length <= AS_IS_MAX_BYTES) {
    header ??= (await sharp(bytes).metadata().catch(() => null)) ?? undefined;
    if (header && showAsIs(bytes, header, THUMBNAIL_BOX)) return listThumbnail(index, key, { width: header.width!, height: header.height! }, null, null);
  }
  if (index.files.has(name)) {
    // Made by a build whose index was not saved, or is of another format: the files' headers say their sizes.
    const made = await webpSize(file);
    const dense = index.files.has(denseName) ? await webpSize(denseFile) : null;
    if (made) return listThumbnail(index, key, made, file, dense && { ...dense, file: denseFile });
  }
  const size = upright(header ?? (await sharp(bytes ?? source).metadata()));
  const input = sharp(bytes ?? source).rotate();
  const fit = (box: Box) => ({ width: box.width, height: box.height, fit: 'inside' as const, withoutEnlargement: true });
  const partial = `${file}.${process.pid}-${++written}.partial`;
  const densePartial = `${denseFile}.${process.pid}-${++written}.partial`;
  try {
    let dense: Thumbnail['dense'] = null;
    let info: Box;
    if (size && wantsDense(size)) {
      // The source is decoded once, at the dense size, and both thumbnails are made from those pixels.
      const pixels = await input.resize(fit(DENSE_THUMBNAIL_BOX)).raw().toBuffer({ resolveWithObject: true });
      const raw = { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } };
      const [made, denseMade] = await Promise.all([
        sharp(pixels.data, raw).resize(fit(THUMBNAIL_BOX)).webp({ quality: QUALITY, effort: WEBP_EFFORT }).toFile(partial),
        sharp(pixels.data, raw).webp({ quality: DENSE_QUALITY, effort: WEBP_EFFORT }).toFile(densePartial),
      ]);
      renameSync(densePartial, denseFile);
      index.files.add(denseName);
      dense = { width: denseMade.width, height: denseMade.height, file: denseFile };
      info = made;
    } else {
      info = await input.resize(fit(THUMBNAIL_BOX)).webp({ quality: QUALITY, effort: WEBP_EFFORT }).toFile(partial);
    }
    renameSync(partial, file);
    return listThumbnail(index, key, { width: info.width, height: info.height }, file, dense);
  } catch (error) {
    rmSync(partial, { force: true });
    rmSync(densePartial, { force: true });
    throw error;
  }
}

/** The size of a WebP thumbnail in the cache, read from its header, or null when it is not one. */
async function webpSize(file: string): Promise<Box | null> {
  const meta = await sharp(file).metadata().catch(() => null);
  return meta?.format === 'webp' && meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
}

/** Records a thumbnail in the index (saved at the end of the build) and returns it; `file` is null for an image shown as it is. */
function listThumbnail(index: ThumbnailIndex, key: string, size: Box, file: string | null, dense: Thumbnail['dense']): Thumbnail {
  index.records.set(key, { ...size, asIs: file === null, dense: dense && { width: dense.width, height: dense.height } });
  if (file) index.files.add(basename(file));
  index.added++;
  return { ...size, file, dense };
}
