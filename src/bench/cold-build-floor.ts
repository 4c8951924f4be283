/**
 * The CPU a cold build cannot skip, timed on its own: every file hashed, every glTF file through gltf-validator, and
 * one thumbnail per distinct image (all cores busy: sharp resizes on its own threads), into a cache of their own. A
 * thumbnail here reads its image's header itself: the build reads it once, in the check, and decides from that.
 * Spread over the cores and added to `cp -a` of the built site, it is the floor under a cold build.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { rm } from 'node:fs/promises';
import pLimit from 'p-limit';
import { loadRegistry } from '../registry/load-registry.ts';
import { isGltf, validateGltfBytes } from '../registry/validate-gltf.ts';
import { makeThumbnail, thumbnailSourceFile } from '../site/data/thumbnails.ts';

/** CPU time (user + system, every thread of this process) and wall time of one part of the floor. */
interface CpuTime {
  cpuMs: number;
  wallMs: number;
}

/** What `measureColdBuildCpu` found. */
export interface ColdBuildCpu {
  /** Hashing every file and validating every glTF file, one after another. */
  validate: CpuTime & { files: number; meshes: number };
  /** One thumbnail per distinct image, several at once. */
  thumbnails: CpuTime & { images: number };
}

/** Runs `work` and measures the CPU this process spent on it, on all its threads. */
async function cpuOf(work: () => Promise<void>): Promise<CpuTime> {
  const wall = performance.now();
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}

/**
 * The CPU of hashing and validating every file of `registryRoot` and of making its thumbnails into `cacheDir`, emptied
 * first (nothing else runs meanwhile). The thumbnails are left there for the caller to remove.
 */
export async function measureColdBuildCpu(registryRoot: string, registryUrl: string, cacheDir: string): Promise<ColdBuildCpu> {
  // The registry is read without validating meshes: only the files, their paths and hashes are wanted here.
  const { registry } = await loadRegistry(registryRoot, { registryUrl, validateGltf: false });
  const versions = registry.objects.flatMap((o) => o.versions);
  const files = versions.flatMap((v) => v.files);
  let meshes = 0;
  const validate = await cpuOf(async () => {
    for (const f of files) {
      const bytes = readFileSync(f.path);
      createHash('sha256').update(bytes).digest();
      if (!isGltf(f.rep)) continue;
      meshes++;
      await validateGltfBytes(bytes, { format: f.rep.format });
    }
  });
  const images = new Map<string, string>();
  for (const v of versions) {
    const file = thumbnailSourceFile(v);
    if (file) images.set(file.hash, file.path);
  }
  await rm(cacheDir, { recursive: true, force: true });
  const limit = pLimit(Math.max(2, availableParallelism() * 2));
  const thumbnails = await cpuOf(async () => {
    await Promise.all([...images].map(([hash, path]) => limit(() => makeThumbnail({ path, hash }, cacheDir))));
  });
  return { validate: { ...validate, files: files.length, meshes }, thumbnails: { ...thumbnails, images: images.size } };
}

/** The floor under a cold build: `cp -a` of its site plus the CPU it cannot skip spread over `cores`. */
export function coldBuildFloorMs(copyMs: number, cpu: ColdBuildCpu, cores = availableParallelism()): number {
  return copyMs + (cpu.validate.cpuMs + cpu.thumbnails.cpuMs) / cores;
}
