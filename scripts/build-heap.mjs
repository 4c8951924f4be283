// The V8 memory of `npm run build` (scripts/build.mjs): its heap bound, its young generation and where its old generation
// starts. Plain JavaScript, so that it runs before any loader.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The heap bound below which no build goes (it holds a registry of about 70,000 small versions). */
export const DEFAULT_HEAP_MB = 640;

/**
 * Heap per thousand versions above that: at 100,000 versions (synthetic, small manifests) the build thread's live heap
 * peaked at about 600 MB during the check, and a bound of 900 MiB held it with room for its garbage.
 */
export const HEAP_MB_PER_1000_VERSIONS = 9;

/** The heap bound for a registry of `versions` versions. */
export function heapMbFor(versions) {
  return Math.max(DEFAULT_HEAP_MB, Math.ceil((versions * HEAP_MB_PER_1000_VERSIONS) / 1000));
}

/**
 * The semi-space of each thread's young generation (V8's `--max-semi-space-size`) in a build whose heap bound is the
 * default. V8's own grows to 16 MiB: the render thread then scavenged about 300 times in a cold build of ten thousand
 * versions, and what its scavenges kept filled its old generation. With 64 MiB, cold builds of ten thousand
 * versions with their output in memory took 10.5-11.8 s against 11.4-12.2 s (six alternating rounds), with about
 * 240 MB more memory.
 */
export const SEMI_SPACE_MB = 64;

/**
 * The semi-space for a registry of `versions` versions, or 0 for V8's own: a registry whose heap bound grows with it
 * keeps its memory for its old generation (at 100,000 versions a build peaked at 1.8 GB with V8's own).
 */
export function semiSpaceMbFor(versions) {
  return heapMbFor(versions) === DEFAULT_HEAP_MB ? SEMI_SPACE_MB : 0;
}

/**
 * Where the old generation's limit starts, in a build given the larger young generation: V8's `--initial-old-space-size`,
 * which it then keeps as the limit's floor. V8 starts a full collection once the room left under that limit is less than
 * what a scavenge could promote, which with 64 MiB semi-spaces is most of it: with its own limit, a small multiple of a
 * live heap of about 60 MB, it marked the whole heap every half second or so (19 full collections on the build's thread
 * and 14 on the render thread in a cold build of ten thousand versions; 4 and 3 with this). Cold builds of ten thousand
 * versions with their output in memory took 9.7-10.5 s against 10.2-11.4 s (six alternating rounds), with about 1.2 s
 * less CPU and about 170 MB more memory.
 */
export const OLD_SPACE_START_MB = 256;

/** Where the old generation starts for a registry of `versions` versions, or 0 for V8's own (with V8's own young generation). */
export function oldSpaceStartMbFor(versions) {
  return semiSpaceMbFor(versions) ? OLD_SPACE_START_MB : 0;
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
 * The memory of a build: with `ASO_BUILD_HEAP_MB` set, that heap bound and V8's own young and old generation sizing;
 * else {@link heapMbFor}, {@link semiSpaceMbFor} and {@link oldSpaceStartMbFor} the registry the build reads
 * (`ASO_REGISTRY_DIR`, else `./registry`, as src/registry/registry-dir.ts). A 0 is V8's own. Throws a sentence for a bad
 * setting.
 */
export function buildMemory(env = process.env, cwd = process.cwd()) {
  const raw = env.ASO_BUILD_HEAP_MB?.trim();
  if (!raw) {
    const versions = countVersions(resolve(cwd, env.ASO_REGISTRY_DIR?.trim() || 'registry'));
    return { heapMb: heapMbFor(versions), semiSpaceMb: semiSpaceMbFor(versions), oldSpaceStartMb: oldSpaceStartMbFor(versions) };
  }
  const heapMb = Number(raw);
  if (!Number.isInteger(heapMb) || heapMb < 128) throw new Error(`ASO_BUILD_HEAP_MB must be a whole number of MiB, at least 128 (not "${raw}")`);
  return { heapMb, semiSpaceMb: 0, oldSpaceStartMb: 0 };
}

/** The V8 flags that give a build the memory {@link buildMemory} returns. */
export function v8FlagsFor({ heapMb, semiSpaceMb, oldSpaceStartMb }) {
  return [
    `--max-old-space-size=${heapMb}`,
    ...(semiSpaceMb ? [`--max-semi-space-size=${semiSpaceMb}`] : []),
    ...(oldSpaceStartMb ? [`--initial-old-space-size=${oldSpaceStartMb}`] : []),
  ];
}
