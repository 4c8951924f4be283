/** The published bytes in the built site: every version's manifest and representation files, and the thumbnails. */
import { join } from 'node:path';
import pMap from 'p-map';
import { manifestPath, representationPath, versionDir } from '../core/paths.ts';
import type { Manifest } from '../core/types.ts';
import { MANIFEST_FILE } from '../registry/check-version.ts';
import type { OutputWriter } from './output-writer.ts';
import type { SiteData } from './site-data.ts';

/**
 * Copies handed to the writer at once: its queue then holds a few of them between the pages and documents being written,
 * instead of every copy of the registry ahead of them (see output-writer.ts).
 */
const COPIES_IN_FLIGHT = 64;

/** One file to copy: its source and its site path. */
export interface Copy {
  from: string;
  path: string;
}

/** The published files of one version: its manifest and each representation and preview file once. */
export function* versionCopies(registryRoot: string, manifest: Manifest): Generator<Copy> {
  const { id, version } = manifest;
  yield { from: join(registryRoot, ...versionDir(id, version).split('/'), MANIFEST_FILE), path: manifestPath(id, version) };
  const paths = new Set<string>();
  for (const rep of [manifest.preview, ...manifest.representations]) {
    if (!rep) continue;
    const path = representationPath(id, version, rep.id, rep.format);
    if (paths.has(path)) continue; // the preview may be one of the representations
    paths.add(path);
    yield { from: join(registryRoot, ...path.split('/')), path };
  }
}

/**
 * The copies of the published files, one after another as they are asked for (a registry of 100,000 versions has
 * 300,000 of them, and made all at once they held hundreds of megabytes for the whole build), but those in `skip`.
 */
function* publishedCopies(data: SiteData, skip: ReadonlySet<string>): Generator<Copy> {
  for (const object of data.objects) {
    for (const { manifest } of object.versions) {
      for (const copy of versionCopies(data.registryRoot, manifest)) if (!skip.has(copy.path)) yield copy;
    }
  }
}

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte (the check verified each against its
 * hash); a file the last build copied is left alone, and those in `skip` (site paths copied already, see
 * early-copies.ts) are not handed to the writer.
 */
export async function copyPublishedFiles(data: SiteData, writer: OutputWriter, skip: ReadonlySet<string> = new Set()): Promise<void> {
  await pMap(publishedCopies(data, skip), ({ from, path }) => writer.copy(from, path), { concurrency: COPIES_IN_FLIGHT });
}

/**
 * Copies each thumbnail of `data` once from the cache (once they are all made); one the last build copied is left
 * alone, and those in `skip` (copied already, see early-copies.ts) are not handed to the writer.
 */
export async function copyThumbnails(data: SiteData, writer: OutputWriter, skip: ReadonlySet<string> = new Set()): Promise<void> {
  const left = [...data.thumbnailFiles].filter(([path]) => !skip.has(path));
  await pMap(left, ([path, from]) => writer.copy(from, path), { concurrency: COPIES_IN_FLIGHT });
}
