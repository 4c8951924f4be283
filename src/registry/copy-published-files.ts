/** Copies every version's manifest and representation bytes, and the thumbnails, into the built site. */
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Manifest } from '../core/types.ts';
import { makeThumbnail, thumbnailSource } from './thumbnails.ts';
import { thumbnailSitePath } from './content-loader.ts';

/** Runs `task` over `items` with at most `limit` at a time. */
export async function eachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** The version folders of a checked registry, relative to it: `objects/<id>/versions/<v>`. */
async function versionFolders(registry: string): Promise<string[]> {
  const out: string[] = [];
  for (const id of await readdir(join(registry, 'objects'))) {
    for (const v of await readdir(join(registry, 'objects', id, 'versions'))) out.push(`objects/${id}/versions/${v}`);
  }
  return out;
}

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte (the kernel copies;
 * nothing is held in memory), and the catalog thumbnails from the cache. The registry was checked by the build.
 */
export async function copyPublishedFiles(registry: string, outDir: string, cache: string): Promise<{ files: number }> {
  const folders = await versionFolders(registry);
  let files = 0;
  await eachLimit(folders, availableParallelism() * 2, async (folder) => {
    const from = join(registry, folder);
    const to = join(outDir, folder);
    await mkdir(join(to, 'representations'), { recursive: true });
    const reps = await readdir(join(from, 'representations'));
    await copyFile(join(from, 'aso.object.json'), join(to, 'aso.object.json'));
    for (const name of reps) await copyFile(join(from, 'representations', name), join(to, 'representations', name));
    files += reps.length + 1;
    const manifest = JSON.parse(await readFile(join(from, 'aso.object.json'), 'utf8')) as Manifest;
    const source = thumbnailSource(manifest);
    if (source) {
      const thumb = await makeThumbnail(join(from, 'representations', `${source.id}.${source.format}`), source.hash, cache);
      for (const file of [thumb.webp, thumb.jpeg]) {
        const target = join(outDir, thumbnailSitePath(file));
        await mkdir(dirname(target), { recursive: true });
        await copyFile(file, target);
      }
    }
  });
  return { files };
}
