/** Copies every version's manifest and representation bytes, and the thumbnails, into the built site. */
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
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

/** Folders copied at once: copying is I/O-bound, so more than the cores keeps the disk busy. */
const COPY_CONCURRENCY = 16;

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte (the kernel copies, or clones
 * where the file system can; nothing is held in memory), and the catalog thumbnails from the cache, each thumbnail
 * once however many versions share it. The registry was checked by the build.
 */
export async function copyPublishedFiles(registry: string, outDir: string, cache: string): Promise<{ files: number }> {
  const folders = await versionFolders(registry);
  const thumbnails = new Map<string, Promise<void>>();
  const copyOnce = (from: string, to: string): Promise<void> => {
    let pending = thumbnails.get(to);
    if (!pending) {
      pending = mkdir(dirname(to), { recursive: true }).then(() => copyFile(from, to, constants.COPYFILE_FICLONE));
      thumbnails.set(to, pending);
    }
    return pending;
  };
  let files = 0;
  await eachLimit(folders, COPY_CONCURRENCY, async (folder) => {
    const from = join(registry, folder);
    const to = join(outDir, folder);
    const [reps, manifestText] = await Promise.all([
      readdir(join(from, 'representations')),
      readFile(join(from, 'aso.object.json'), 'utf8'),
      mkdir(join(to, 'representations'), { recursive: true }),
    ]);
    await Promise.all([
      copyFile(join(from, 'aso.object.json'), join(to, 'aso.object.json'), constants.COPYFILE_FICLONE),
      ...reps.map((name) => copyFile(join(from, 'representations', name), join(to, 'representations', name), constants.COPYFILE_FICLONE)),
    ]);
    files += reps.length + 1;
    const source = thumbnailSource(JSON.parse(manifestText) as Manifest);
    if (source) {
      const thumb = await makeThumbnail(join(from, 'representations', `${source.id}.${source.format}`), source.hash, cache);
      await Promise.all([thumb.webp, thumb.jpeg].map((file) => copyOnce(file, join(outDir, thumbnailSitePath(file)))));
    }
  });
  return { files };
}
