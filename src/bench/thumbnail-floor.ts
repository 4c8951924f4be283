/**
 * The thumbnails a cold build cannot skip, timed on their own: one per distinct image of the registry, all cores busy
 * (sharp resizes on its own threads), into a cache of their own. With `npm run check` (every file hashed, every mesh
 * validated) and `cp -a` of the built site, this is the floor under a cold build.
 */
import { availableParallelism } from 'node:os';
import { rm } from 'node:fs/promises';
import pLimit from 'p-limit';
import { loadRegistry } from '../registry/load-registry.ts';
import { makeThumbnail, thumbnailSource } from '../site/thumbnails.ts';

/** How long making every thumbnail of `registryRoot` took, and how many. */
export async function measureThumbnails(registryRoot: string, registryUrl: string, cacheDir: string): Promise<{ ms: number; images: number }> {
  // The registry is read without validating meshes: only the image paths and hashes are wanted here.
  const { registry } = await loadRegistry(registryRoot, { registryUrl, validateGltf: false });
  const images = new Map<string, string>();
  for (const v of registry.objects.flatMap((o) => o.versions)) {
    const image = thumbnailSource(v.manifest);
    const file = image && v.files.find((f) => f.rep.id === image.id && f.rep.hash === image.hash);
    if (file) images.set(image.hash, file.path);
  }
  await rm(cacheDir, { recursive: true, force: true });
  const limit = pLimit(Math.max(2, availableParallelism() * 2));
  const started = performance.now();
  await Promise.all([...images].map(([hash, path]) => limit(() => makeThumbnail(path, hash, cacheDir))));
  const ms = performance.now() - started;
  await rm(cacheDir, { recursive: true, force: true });
  return { ms, images: images.size };
}
