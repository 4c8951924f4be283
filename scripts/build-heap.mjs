// The heap bound of `npm run build` (scripts/build.mjs): without one V8 lets garbage pile up far beyond the live data
// while pages render (see docs/decisions/0013-build-heap-bound.md). Plain JavaScript, so that it runs before any
// loader.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The heap bound below which no build goes, whatever the size of the registry. */
export const DEFAULT_HEAP_MB = 640;

/** Heap per thousand versions, once that is more than {@link DEFAULT_HEAP_MB}: a build holds every version's data. */
export const HEAP_MB_PER_1000_VERSIONS = 9;

/** The heap bound for a registry of `versions` versions. */
export function heapMbFor(versions) {
  return Math.max(DEFAULT_HEAP_MB, Math.ceil((versions * HEAP_MB_PER_1000_VERSIONS) / 1000));
}

/** The version folders of a registry (`objects/<id>/versions/<version>/`), counted without reading any file; 0 when there are none to read. */
export function countVersions(registryRoot) {
  let count = 0;
  const objects = join(registryRoot, 'objects');
  let ids;
  try {
    ids = readdirSync(objects);
  } catch {
    return 0; // the build says what is wrong with the registry
  }
  for (const id of ids) {
    try {
      count += readdirSync(join(objects, id, 'versions')).length;
    } catch {
      // not an object folder: the check names it
    }
  }
  return count;
}

/**
 * The heap bound of a build, in MiB: `ASO_BUILD_HEAP_MB` when set, else {@link heapMbFor} the registry the build reads
 * (`ASO_REGISTRY_DIR`, else `./registry`, as src/registry/registry-dir.ts). Throws a sentence for a bad setting.
 */
export function buildHeapMb(env = process.env, cwd = process.cwd()) {
  const raw = env.ASO_BUILD_HEAP_MB?.trim();
  if (!raw) return heapMbFor(countVersions(resolve(cwd, env.ASO_REGISTRY_DIR?.trim() || 'registry')));
  const heapMb = Number(raw);
  if (!Number.isInteger(heapMb) || heapMb < 128) throw new Error(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${raw}")`);
  return heapMb;
}
