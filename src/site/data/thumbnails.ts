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

/** Width of catalog thumbnails in CSS pixels. */
export const THUMBNAIL_WIDTH = 320;

/**
 * libwebp's effort (0-6, default 4): 2 costs clearly less CPU than 4 for slightly larger files, and lower efforts make
 * much larger files (see docs/decisions/0003-webp-thumbnails.md).
 */
const WEBP_EFFORT = 2;

/**
 * The name of the thumbnail of the image whose hash is `hash`: its content and how it was made. Thumbnails are served as
 * immutable (core/documents/host-headers.ts), so thumbnails made another way (another size, effort or quality) take
 * another name.
 */
export function thumbnailKey(hash: string): string {
  return `${sriToHex(hash)}-w${THUMBNAIL_WIDTH}-e${WEBP_EFFORT}`;
}

/**
 * One thumbnail: a single WebP file (every browser that runs the viewer reads WebP, so no fallback format is made),
 * with its real size. Transparency in the source is kept: WebP has an alpha channel. A small image is its own thumbnail
 * (thumbnail-as-is.ts): then there is no file, and the pages show the version's own image.
 */
export interface Thumbnail {
  width: number;
  height: number;
  /** The WebP file in the cache, or null when the source image is shown as it is. */
  file: string | null;
}

/** Site path of a thumbnail file: content-keyed, so it never changes under its name. */
export function thumbnailSitePath(file: string): string {
  return `thumbnails/${basename(file)}`;
}

/**
 * The shape of the cache's index. A new value makes the index of an older build be ignored: its thumbnails are then
 * found by their files (see `makeThumbnailOnce`).
 */
const RECORD_FORMAT = 'thumbnail/4 webp or as-is';
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

/** A thumbnail's size, and whether its image is shown as it is. */
interface ThumbnailRecord {
  width: number;
  height: number;
  asIs: boolean;
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
        if (Array.isArray(size) && Number.isInteger(size[0]) && Number.isInteger(size[1])) records.set(key, { width: size[0] as number, height: size[1] as number, asIs: size[2] === AS_IS });
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
  const records = Object.fromEntries([...index.records].map(([key, r]) => [key, r.asIs ? [r.width, r.height, AS_IS] : [r.width, r.height]]));
  await mkdir(join(cache, 'thumbnails'), { recursive: true });
  await writeFileAtomic(join(cache, 'thumbnails', INDEX_FILE), JSON.stringify({ format: RECORD_FORMAT, records }));
}

/** An index for one thumbnail, when the caller has none: it lists the thumbnail's file when it is in the cache. */
function oneThumbnailIndex(cache: string, hash: string): ThumbnailIndex {
  const name = `${thumbnailKey(hash)}.webp`;
  const dir = join(cache, 'thumbnails');
  mkdirSync(dir, { recursive: true });
  return { records: new Map(), files: new Set(existsSync(join(dir, name)) ? [name] : []), added: 0 };
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
 * The thumbnail of an image, or null when sharp cannot make one (pixels the check's header test could not see, say):
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

/**
 * Makes a thumbnail, or finds it in the cache, whose folder was made when the index was opened. Everything but the
 * image work is synchronous, so that a thumbnail takes one turn of a busy event loop rather than one per step. The WebP
 * is written under a temporary name and renamed, so a file under a thumbnail's name is always whole, and its header
 * says its size when the index does not. Whether a small image is shown as it is depends on its bytes alone, never on
 * what the cache holds: a cache made before that rule, holding a WebP of it, gives the site a build without a cache
 * gives.
 */
async function makeThumbnailOnce(image: ThumbnailImage, cache: string, index: ThumbnailIndex): Promise<Thumbnail> {
  const { path: source, hash } = image;
  const key = thumbnailKey(hash);
  const dir = join(cache, 'thumbnails');
  const name = `${key}.webp`;
  const file = join(dir, name);
  // The index of this format holds what the rule below decided: either answer holds without reading the image.
  const listed = index.records.get(key);
  if (listed?.asIs) return { width: listed.width, height: listed.height, file: null };
  if (listed && index.files.has(name)) return { width: listed.width, height: listed.height, file };
  // A small image is read in one piece: libvips reading a file itself opens and seeks it many times over.
  const bytes = await readSmallFile(source);
  if (bytes && bytes.length <= AS_IS_MAX_BYTES) {
    // The check read the header of these bytes (their hash is the one it verified): sharp need not read it again.
    const header = image.header ?? readImageHeader(bytes) ?? (await sharp(bytes).metadata().catch(() => null));
    if (header && showAsIs(bytes, header, THUMBNAIL_WIDTH)) return listThumbnail(index, key, null, { width: header.width!, height: header.height! }, null);
  }
  if (index.files.has(name)) {
    // Made by a build whose index was not saved, or is of another format: the file's header says its size.
    const meta = await sharp(file).metadata().catch(() => null);
    if (meta?.format === 'webp' && meta.width && meta.height) return listThumbnail(index, key, name, { width: meta.width, height: meta.height }, file);
  }
  const partial = `${file}.${process.pid}-${++written}.partial`;
  try {
    const info = await sharp(bytes ?? source).rotate().resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: 78, effort: WEBP_EFFORT }).toFile(partial);
    renameSync(partial, file);
    return listThumbnail(index, key, name, { width: info.width, height: info.height }, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Records a thumbnail in the index (saved at the end of the build) and returns it; `name` and `file` are null for an image shown as it is. */
function listThumbnail(index: ThumbnailIndex, key: string, name: string | null, size: { width: number; height: number }, file: string | null): Thumbnail {
  index.records.set(key, { ...size, asIs: file === null });
  if (name) index.files.add(name);
  index.added++;
  return { ...size, file };
}
