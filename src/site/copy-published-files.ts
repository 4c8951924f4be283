/** The published bytes in the built site: every version's manifest and representation files, and the thumbnails. */
import { join } from 'node:path';
import pLimit from 'p-limit';
import { manifestPath, representationPath, versionDir } from '../core/paths.ts';
import { MANIFEST_FILE } from '../registry/check-version.ts';
import type { OutputWriter } from './output-writer.ts';
import type { SiteData } from './site-data.ts';

/**
 * Copies handed to the writer at once: its queue then holds a few of them between the pages and documents being written,
 * instead of every copy of the registry ahead of them (see output-writer.ts).
 */
const COPIES_IN_FLIGHT = 64;

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte (the check verified each against its
 * hash), and each thumbnail once from the cache; a file the last build copied is left alone.
 */
export async function copyPublishedFiles(data: SiteData, writer: OutputWriter): Promise<void> {
  const limit = pLimit(COPIES_IN_FLIGHT);
  const copies: Array<Promise<boolean>> = [];
  const paths = new Set<string>();
  const copy = (from: string, path: string): void => {
    paths.add(path);
    copies.push(limit(() => writer.copy(from, path)));
  };
  for (const object of data.objects) {
    for (const { manifest } of object.versions) {
      const { id, version } = manifest;
      const from = join(data.registryRoot, ...versionDir(id, version).split('/'));
      copy(join(from, MANIFEST_FILE), manifestPath(id, version));
      for (const rep of [manifest.preview, ...manifest.representations]) {
        if (!rep) continue;
        const path = representationPath(id, version, rep.id, rep.format);
        if (paths.has(path)) continue; // the preview may be one of the representations
        copy(join(data.registryRoot, ...path.split('/')), path);
      }
    }
  }
  for (const [path, file] of data.thumbnailFiles) copy(file, path);
  await Promise.all(copies);
}
