/** Copies every version's manifest and representation bytes, and the thumbnails, into the built site. */
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, stat, utimes } from 'node:fs/promises';
import { readRegistryJson } from '../registry/read-registry-json.ts';
import { dirname, join } from 'node:path';
import type { Manifest } from '../core/types.ts';
import pLimit from 'p-limit';
import { thumbnailOrNull, thumbnailSource } from './thumbnails.ts';
import { thumbnailSitePath } from './content-loader.ts';

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

/** What `copyPublishedFiles` did: every file it is responsible for, and how many it had to copy. */
export interface PublishedCopy {
  /** Absolute paths in `outDir` of every published file and thumbnail, copied now or left from the last build. */
  paths: Set<string>;
  /** Files copied by this build (the rest were already there, unchanged). */
  copied: number;
}

/**
 * Whether a copy's modification time, set from the source's with utimes, is the source's. Times travel to the kernel
 * as seconds in a float, which keeps about a microsecond, so they are compared to within a millisecond.
 */
function sameTime(copyMs: number, sourceMs: number): boolean {
  return Math.abs(copyMs - sourceMs) < 1;
}

/**
 * Copies `from` to `to` unless `to` is already a copy of it: same size and the same modification time, which a copy
 * made here is given. Published files never change, so a rebuild skips nearly all of them. Returns whether it copied.
 */
export async function copyIfChanged(from: string, to: string): Promise<boolean> {
  const [source, target] = await Promise.all([stat(from), stat(to).catch(() => null)]);
  if (target?.isFile() && target.size === source.size && sameTime(target.mtimeMs, source.mtimeMs)) return false;
  // The kernel copies, or clones where the file system can; nothing is held in memory.
  await copyFile(from, to, constants.COPYFILE_FICLONE);
  await utimes(to, source.atimeMs / 1000, source.mtimeMs / 1000);
  return true;
}

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte, and the catalog thumbnails from
 * the cache, each thumbnail once however many versions share it; files left from the last build are kept when they
 * are unchanged. The registry was checked by the build.
 */
export async function copyPublishedFiles(registry: string, outDir: string, cache: string): Promise<PublishedCopy> {
  const folders = await versionFolders(registry);
  const paths = new Set<string>();
  let copied = 0;
  const copy = async (from: string, to: string): Promise<void> => {
    paths.add(to);
    if (await copyIfChanged(from, to)) copied++;
  };
  const thumbnails = new Map<string, Promise<void>>();
  const copyOnce = (from: string, to: string): Promise<void> => {
    let pending = thumbnails.get(to);
    if (!pending) {
      pending = mkdir(dirname(to), { recursive: true }).then(() => copy(from, to));
      thumbnails.set(to, pending);
    }
    return pending;
  };
  const limit = pLimit(COPY_CONCURRENCY);
  await Promise.all(folders.map((folder) => limit(async () => {
    const from = join(registry, folder);
    const to = join(outDir, folder);
    const [reps, manifestJson] = await Promise.all([
      readdir(join(from, 'representations')),
      readRegistryJson(join(from, 'aso.object.json')),
      mkdir(join(to, 'representations'), { recursive: true }),
    ]);
    await Promise.all([
      copy(join(from, 'aso.object.json'), join(to, 'aso.object.json')),
      ...reps.map((name) => copy(join(from, 'representations', name), join(to, 'representations', name))),
    ]);
    if ('error' in manifestJson) throw new Error(`${join(from, 'aso.object.json')}: ${manifestJson.error}`);
    const source = thumbnailSource(manifestJson.value as Manifest);
    if (source) {
      // The content loader made it (or warned that it could not) already; this finds it in the cache.
      const thumb = await thumbnailOrNull(join(from, 'representations', `${source.id}.${source.format}`), source.hash, cache, () => {});
      if (thumb) await Promise.all([thumb.webp, thumb.jpeg].map((file) => copyOnce(file, join(outDir, thumbnailSitePath(file)))));
    }
  })));
  return { paths, copied };
}
