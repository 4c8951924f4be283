/**
 * Everything the site is made of, read from `registry/`: the registry is checked (every file hashed and validated once,
 * then looked up in the content-keyed cache, see registry/file-check-cache.ts), versions are grouped into objects,
 * tags and worlds, and each version gets its catalog thumbnail (made once per image, cached by content). The build
 * runs the two steps as phases of its own; `astro dev` loads it all on its first request.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { representationPath } from '@aso-registry/core/format/paths';
import { LFS_PULL } from '../../registry/check-version.ts';
import type { RegistryBlobs } from '../../registry/registry-blobs.ts';
import pMap from 'p-map';
import { groupObjects, newestFirst, tagIndex, tagSlugs } from '@aso-registry/core/documents/catalog';
import type { World } from '@aso-registry/core/format/types';
import { openFileCheckCache } from '../../registry/file-check-cache.ts';
import { withGltfValidation, type GltfValidationOptions } from '../../registry/gltf-validation-threads.ts';
import { loadRegistry } from '../../registry/load-registry.ts';
import { formatProblem, type RegistryVersion } from '../../registry/registry-model.ts';
import type { VersionEntry } from './version-entry.ts';
import { readSiteLog } from './site-log.ts';
import { SEARCH_SHARD_PAGES, searchShardCount } from '../search/search-shards.ts';
import type { SiteData } from './site-model.ts';
import { openThumbnailIndex, saveThumbnailIndex, thumbnailOrNull, thumbnailSitePath, thumbnailSourceFile } from './thumbnails.ts';

/** The error the build stops with: every problem, one per line, as `npm run check` prints them. */
class RegistryProblemsError extends Error {
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
  /** The threads gltf-validator runs on; default those of `ASO_VALIDATION_THREADS` (gltf-validation-threads.ts). */
  gltfThreads?: GltfValidationOptions;
  /** The blob store of `ASO_BLOB_STORE`, for representations kept outside `registry/`. */
  blobs?: RegistryBlobs;
}

/** Thumbnails made at once: sharp works on its own threads, so a few more than the cores keep them busy. */
const THUMBNAILS_AT_ONCE = Math.max(2, availableParallelism() * 2);

/** The checked registry as the site's data, without thumbnails yet (see {@link addThumbnails}). */
export interface CheckedSite {
  data: SiteData;
  /** Each version's entry in `data` with the version the check read, whose files the thumbnail is made from. */
  versions: ReadonlyArray<{ entry: VersionEntry; checked: RegistryVersion }>;
  /** The glTF files gltf-validator read on threads of their own, and on how many threads. */
  validatedOnThreads: { files: number; threads: number };
}

/** Checks the registry and returns the site's data with its thumbnails; throws {@link RegistryProblemsError} when the check finds problems. */
export async function loadSite(source: SiteSource): Promise<SiteData> {
  const site = await checkSite(source);
  await addThumbnails(site, source.cacheDir, source.warn);
  return site.data;
}

/** Checks the registry and returns the site's data without thumbnails; throws {@link RegistryProblemsError} when the check finds problems. */
export async function checkSite(source: SiteSource): Promise<CheckedSite> {
  const { loaded, validatedOnThreads } = await withGltfValidation(source.gltfThreads, async (validation) => {
    const checks = await openFileCheckCache(source.cacheDir, source.registryRoot, validation.validate);
    const loaded = await loadRegistry(source.registryRoot, {
      registryUrl: source.registryUrl,
      hashFile: checks.hashFile,
      validateGltfFile: checks.validateGltf,
      checkImageFile: checks.checkImage,
      // The site publishes every byte: a Git LFS pointer stops the build, a stored blob is downloaded and verified.
      needContent: true,
      ...(source.blobs ? { blobs: source.blobs } : {}),
    });
    await checks.save();
    return { loaded, validatedOnThreads: validation.onThreads() };
  });
  const pointers = loaded.problems.filter((p) => p.message === LFS_PULL);
  if (pointers.length) {
    const more = pointers.length > 1 ? ` (and ${pointers.length - 1} more file${pointers.length === 2 ? '' : 's'})` : '';
    throw new Error(`${pointers[0]!.file}${more}: ${LFS_PULL}`);
  }
  if (loaded.problems.length) throw new RegistryProblemsError(loaded.problems.map(formatProblem));
  const { registry, retracted, keys, ledger } = loaded;
  const versions = registry.objects
    .flatMap((o) => o.versions)
    .map((checked): CheckedSite['versions'][number] => ({
      checked,
      entry: {
        manifest: checked.manifest,
        publication: checked.publication,
        thumbnail: null,
        retracted: retracted.get(`${checked.id}@${checked.version}`) ?? null,
        gltf: Object.fromEntries(checked.files.flatMap((f) => (f.gltf ? [[f.rep.id, f.gltf.inventory]] : []))),
      },
    }));
  const worlds: World[] = [...registry.worlds].sort((a, b) => a.id.localeCompare(b.id));
  const objects = groupObjects(versions.map((v) => v.entry));
  const catalog = newestFirst(objects);
  const index = tagIndex(catalog);
  const slugs = tagSlugs(index.keys());
  const tags = [...index].map(([tag, objectIds]) => ({ tag, slug: slugs.get(tag)!, objectIds }));
  const log = await readSiteLog(source.registryRoot, source.registryUrl, keys.logKey);
  const searchShards = searchShardCount(objects, source.searchShardPages ?? SEARCH_SHARD_PAGES);
  const checkpoint = ledger && { size: ledger.size, head: ledger.head };
  const storedFiles = storedFileSources(registry.objects.flatMap((o) => o.versions), source.registryRoot);
  const data: SiteData = { registryUrl: source.registryUrl, registryRoot: source.registryRoot, objects, catalog, worlds, tags, log, ledger: checkpoint, keys, thumbnailFiles: new Map(), searchShards, ...(storedFiles.size ? { storedFiles } : {}) };
  return { data, versions, validatedOnThreads };
}

/** The site path and local copy of every file whose bytes are not at its place in `registry/` (those from the blob store). */
function storedFileSources(versions: RegistryVersion[], registryRoot: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of versions) {
    for (const f of v.files) {
      const path = representationPath(v.id, v.version, f.rep.id, f.rep.format);
      if (resolve(f.path) !== resolve(registryRoot, ...path.split('/'))) out.set(path, f.path);
    }
  }
  return out;
}

/**
 * Sets each version's thumbnail in place (the catalog and the objects hold the same entries) and lists the files made
 * for them in `data.thumbnailFiles`; a thumbnail that cannot be made stays null, with a warning.
 */
export async function addThumbnails(site: CheckedSite, cacheDir: string, warn: (message: string) => void = () => {}): Promise<void> {
  const index = await openThumbnailIndex(cacheDir);
  await pMap(
    site.versions,
    async ({ entry, checked }) => {
      const image = thumbnailSourceFile(checked);
      const thumb = image && (await thumbnailOrNull(image, cacheDir, warn, index));
      if (!image || !thumb) return;
      let path = image.sitePath;
      if (thumb.file) {
        path = thumbnailSitePath(thumb.file);
        site.data.thumbnailFiles.set(path, thumb.file);
      }
      entry.thumbnail = { width: thumb.width, height: thumb.height, path };
      if (thumb.dense) {
        const dense = thumbnailSitePath(thumb.dense.file);
        site.data.thumbnailFiles.set(dense, thumb.dense.file);
        entry.thumbnail.dense = { width: thumb.dense.width, height: thumb.dense.height, path: dense };
      }
    },
    { concurrency: THUMBNAILS_AT_ONCE },
  );
  await saveThumbnailIndex(cacheDir, index);
}
