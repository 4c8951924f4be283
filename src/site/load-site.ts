/**
 * Everything the site is made of, read from `registry/` in one pass: the registry is checked (every file hashed and
 * validated once, then looked up in the content-keyed cache, see registry/file-check-cache.ts), each version gets its
 * catalog thumbnail (made once per image, cached by content), and versions are grouped into objects, tags and worlds.
 * The build computes it once and hands it to the page renderer; `astro dev` computes it on its first request.
 */
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { groupObjects, newestFirst, tagIndex, tagSlugs } from '../core/catalog.ts';
import type { World } from '../core/types.ts';
import { openFileCheckCache } from '../registry/file-check-cache.ts';
import { withGltfValidation, type GltfValidationOptions } from '../registry/gltf-validation-threads.ts';
import { loadRegistry } from '../registry/load-registry.ts';
import { formatProblem, type RegistryVersion } from '../registry/registry-model.ts';
import type { VersionEntry } from './version-entry.ts';
import { readSiteLog } from './site-log.ts';
import { SEARCH_SHARD_PAGES, searchShardCount } from './search-shards.ts';
import type { SiteData } from './site-data.ts';
import { openThumbnailIndex, saveThumbnailIndex, thumbnailOrNull, thumbnailSitePath, thumbnailSourceFile, type Thumbnail } from './thumbnails.ts';

/** The error the build stops with: every problem, one per line, as `npm run check` prints them. */
export class RegistryProblemsError extends Error {
  constructor(lines: string[]) {
    super(`the registry has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
    this.name = 'RegistryProblemsError';
  }
}

/** Where the site comes from. */
export interface SiteSource {
  /** The `registry/` folder. */
  registryRoot: string;
  /** The origin the site is published at. */
  registryUrl: string;
  /** The content-keyed cache of file checks and thumbnails. */
  cacheDir: string;
  /** A thumbnail that cannot be made, named with its file and why. */
  warn?: (message: string) => void;
  /** Record pages a shard of the search index holds, about (see search-shards.ts). */
  searchShardPages?: number;
  /** Called as each version checks clean, with how many have so far (the check goes on). */
  onVersion?: (checked: number, version: RegistryVersion) => void;
  /** Called once the registry's version folders are listed, before any is checked, with how many there are. */
  onListed?: (versions: number) => void;
  /** The threads gltf-validator runs on; default those of `ASO_VALIDATION_THREADS` (gltf-validation-threads.ts). */
  gltfThreads?: GltfValidationOptions;
  /** Called as each thumbnail file is made or found in the cache, with its site path (a path may come more than once). */
  onThumbnail?: (sitePath: string, file: string) => void;
}

/** Thumbnails made at once: sharp works on its own threads, so a few more than the cores keep them busy. */
const THUMBNAILS_AT_ONCE = Math.max(2, availableParallelism() * 2);

/** What loading took, for the build's phase table. */
export interface SiteLoadTimes {
  /** Reading, hashing and validating the registry (cache lookups for files seen before). */
  checkMs: number;
  /** Grouping, tags, the log's tree. */
  modelMs: number;
}

/**
 * The site's data as soon as the registry checks clean, and the thumbnails still being made: a build writes what does
 * not show a thumbnail (documents, published bytes) meanwhile, and renders pages once `thumbnails` resolves.
 */
export interface CheckedSite {
  /** Each version's `thumbnail` is set, and its file listed in `thumbnailFiles`, as it is made: read them once `thumbnails` resolves. */
  data: SiteData;
  /** Resolves once every version's thumbnail is made or found and set on it (one that cannot be made stays null). */
  thumbnails: Promise<void>;
  /** The glTF files gltf-validator read on threads of their own during the check, and on how many threads. */
  validatedOnThreads: { files: number; threads: number };
}

/** Checks the registry and returns the site's data; throws {@link RegistryProblemsError} when the check finds problems. */
export async function loadSite(source: SiteSource, times?: SiteLoadTimes): Promise<SiteData> {
  const { data, thumbnails } = await checkSite(source, times);
  await thumbnails;
  return data;
}

/**
 * Checks the registry and returns the site's data with its thumbnails on the way (see {@link CheckedSite}); throws
 * {@link RegistryProblemsError} when the check finds problems.
 */
export async function checkSite(source: SiteSource, times?: SiteLoadTimes): Promise<CheckedSite> {
  let t = performance.now();
  const warn = source.warn ?? ((): void => {});
  // A version's thumbnail is made as soon as its folder checks clean: sharp's threads resize while the check goes on.
  const limit = pLimit(THUMBNAILS_AT_ONCE);
  // Each with the site path of its source image, which the pages show when the image is its own thumbnail.
  const thumbnails = new Map<RegistryVersion, Promise<{ thumb: Thumbnail | null; sitePath: string } | null>>();
  const startThumbnail = (v: RegistryVersion): void => {
    const file = thumbnailSourceFile(v);
    const make = async (image: NonNullable<typeof file>): Promise<{ thumb: Thumbnail | null; sitePath: string }> => {
      const thumb = await thumbnailOrNull(image, source.cacheDir, warn, thumbnailIndex);
      if (thumb?.file) source.onThumbnail?.(thumbnailSitePath(thumb.file), thumb.file);
      return { thumb, sitePath: image.sitePath };
    };
    thumbnails.set(v, file ? limit(() => make(file)) : Promise.resolve(null));
  };
  let clean = 0;
  const thumbnailIndex = await openThumbnailIndex(source.cacheDir);
  // Meshes the cache does not know are validated on threads of their own (see gltf-validation-threads.ts).
  const { checks, loaded, validatedOnThreads } = await withGltfValidation(source.gltfThreads, async (validation) => {
    const checks = await openFileCheckCache(source.cacheDir, source.registryRoot, validation.validate);
    const loaded = await loadRegistry(source.registryRoot, {
      registryUrl: source.registryUrl,
      hashFile: checks.hashFile,
      validateGltfFile: checks.validateGltf,
      checkImageFile: checks.checkImage,
      // A version holds a mesh or so, and the cache knows those of earlier builds: a registry with more new versions
      // than the calling thread validates before the threads start has them start now, while the first are read.
      onListed: (versions) => {
        validation.expect(versions - checks.gltfKnown);
        source.onListed?.(versions);
      },
      onVersion: (v) => {
        startThumbnail(v);
        source.onVersion?.(++clean, v);
      },
    });
    return { checks, loaded, validatedOnThreads: validation.onThreads() };
  });
  await checks.save();
  if (loaded.problems.length) throw new RegistryProblemsError(loaded.problems.map(formatProblem));
  if (times) times.checkMs = performance.now() - t;
  t = performance.now();
  const { registry, retracted, keys, ledger } = loaded;
  const checked = registry.objects.flatMap((o) => o.versions);
  const versions: VersionEntry[] = checked.map((v) => ({
    manifest: v.manifest,
    publication: v.publication,
    thumbnail: null,
    retracted: retracted.get(`${v.id}@${v.version}`) ?? null,
    gltf: Object.fromEntries(v.files.flatMap((f) => (f.gltf ? [[f.rep.id, f.gltf.inventory]] : []))),
  }));
  const worlds: World[] = [...registry.worlds].sort((a, b) => a.id.localeCompare(b.id));
  const objects = groupObjects(versions);
  const catalog = newestFirst(objects);
  const index = tagIndex(catalog);
  const slugs = tagSlugs(index.keys());
  const tags = [...index].map(([tag, objectIds]) => ({ tag, slug: slugs.get(tag)!, objectIds }));
  const log = await readSiteLog(source.registryRoot, source.registryUrl, keys.logKey);
  if (times) times.modelMs = performance.now() - t;
  const searchShards = searchShardCount(objects, source.searchShardPages ?? SEARCH_SHARD_PAGES);
  const thumbnailFiles = new Map<string, string>();
  const checkpoint = ledger && { size: ledger.size, head: ledger.head };
  const data: SiteData = { registryUrl: source.registryUrl, registryRoot: source.registryRoot, objects, catalog, worlds, tags, log, ledger: checkpoint, keys, thumbnailFiles, searchShards };
  // The entries above are those the objects hold: each gets its thumbnail in place once it is made.
  const made = (async (): Promise<void> => {
    await Promise.all(
      checked.map(async (v, i) => {
        if (!thumbnails.has(v)) startThumbnail(v);
        const found = await thumbnails.get(v)!;
        const thumb = found?.thumb;
        if (!thumb) return;
        let path = found.sitePath;
        if (thumb.file) {
          path = thumbnailSitePath(thumb.file);
          thumbnailFiles.set(path, thumb.file);
        }
        versions[i]!.thumbnail = { width: thumb.width, height: thumb.height, path };
      }),
    );
    await saveThumbnailIndex(source.cacheDir, thumbnailIndex);
  })();
  made.catch(() => {}); // awaited by the caller; a failure before that must not stop the process
  return { data, thumbnails: made, validatedOnThreads };
}
