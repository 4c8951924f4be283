/** The Astro content loader over `registry/`: one entry per checked version, one per world. */
import type { Loader } from 'astro/loaders';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { World } from '../core/types.ts';
import { openFileCheckCache } from '../registry/file-check-cache.ts';
import { loadRegistry, type LoadedRegistry } from '../registry/load-registry.ts';
import { formatProblem } from '../registry/registry-model.ts';
import { cacheDir, registryDir } from '../registry/registry-dir.ts';
import { registryUrl } from '../registry/registry-url.ts';
import type { StoredVersion } from './read-version-entries.ts';
import { thumbnailOrNull, thumbnailSource } from './thumbnails.ts';

export type { VersionEntry } from './read-version-entries.ts';

/** The error the build stops with: every problem, one per line, as `npm run check` prints them. */
export class RegistryProblemsError extends Error {
  constructor(lines: string[]) {
    super(`the registry has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
    this.name = 'RegistryProblemsError';
  }
}

/** The shape of a stored entry: a new value makes every cached entry be written again. */
const ENTRY_FORMAT = 'stored-version/3';

let pending: Promise<LoadedRegistry> | undefined;

/** Loads and checks the registry (its ledger and retractions included) once per build, shared by both collections. */
function checkedRegistry(): Promise<LoadedRegistry> {
  pending ??= (async () => {
    // Every file is hashed and validated once; later builds, in this clone or another, look it up (see file-check-cache.ts).
    const checks = await openFileCheckCache(cacheDir(), registryDir());
    const loaded = await loadRegistry(registryDir(), { registryUrl: registryUrl(), hashFile: checks.hashFile, validateGltfFile: checks.validateGltf, checkImageFile: checks.checkImage });
    await checks.save();
    if (loaded.problems.length) throw new RegistryProblemsError(loaded.problems.map(formatProblem));
    return loaded;
  })();
  return pending;
}

/** Site path of a thumbnail file: content-keyed, so it never changes under its name. */
export function thumbnailSitePath(file: string): string {
  return `thumbnails/${basename(file)}`;
}

/**
 * Every object version of the registry. The digest is the record hash, so unchanged versions are not reprocessed.
 * An entry is a small record (`StoredVersion`); the pages read the checked manifest back (read-version-entries.ts).
 */
export function versionsLoader(): Loader {
  return {
    name: 'aso-registry-versions',
    load: async ({ store, logger }) => {
      const { registry, retracted } = await checkedRegistry();
      const cache = cacheDir();
      const versions = registry.objects.flatMap((o) => o.versions);
      const keep = new Set<string>();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < versions.length) {
          const v = versions[next++]!;
          const key = `${v.id}@${v.version}`;
          keep.add(key);
          const retraction = retracted.get(key) ?? null;
          // A retraction changes the entry but never the record hash, so it is part of the digest; so is the entry's shape.
          // The glTF inventories follow from the bytes, which the record hash fixes.
          const digest = `${ENTRY_FORMAT} ${v.publication.recordHash}${retraction ? ` ${JSON.stringify(retraction)}` : ''}`;
          if (store.get(key)?.digest === digest) continue;
          const source = thumbnailSource(v.manifest);
          const file = source && v.files.find((f) => f.rep.id === source.id && f.rep.hash === source.hash);
          const thumb = file ? await thumbnailOrNull(file.path, source.hash, cache, (m) => logger.warn(m)) : null;
          const data: StoredVersion = {
            id: v.id,
            version: v.version,
            recordHash: v.publication.recordHash,
            thumbnail: thumb && {
              width: thumb.width,
              height: thumb.height,
              webp: thumbnailSitePath(thumb.webp),
              jpeg: thumbnailSitePath(thumb.jpeg),
            },
            retracted: retraction,
            gltf: Object.fromEntries(v.files.flatMap((f) => (f.gltf ? [[f.rep.id, f.gltf.inventory]] : []))),
          };
          store.set({ id: key, data: data as unknown as Record<string, unknown>, digest });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
      for (const id of store.keys()) if (!keep.has(id)) store.delete(id);
      logger.info(`${registry.stats.versions} versions of ${registry.stats.objects} objects, ${registry.stats.files} files verified`);
    },
  };
}

/** Every world of the registry. */
export function worldsLoader(): Loader {
  return {
    name: 'aso-registry-worlds',
    load: async ({ store }) => {
      const { registry } = await checkedRegistry();
      store.clear();
      for (const world of registry.worlds) store.set({ id: world.id, data: world as unknown as Record<string, unknown> });
    },
  };
}

export type { World };
