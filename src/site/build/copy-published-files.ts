/** The published bytes in the built site: every version's manifest and representation files, and the thumbnails. */
import { join } from 'node:path';
import pMap from 'p-map';
import { manifestPath, representationPath, versionDir } from '@aso-registry/core/format/paths';
import type { Manifest } from '@aso-registry/core/format/types';
import type { OutputWriter } from '../output/output-writer.ts';
import type { SiteData } from '../data/site-model.ts';
import { MANIFEST_FILE } from '../../registry/registry-files.ts';

/** Copies handed to the writer at once: memory holds those in flight, not a pending copy per published file. */
const COPIES_IN_FLIGHT = 64;

/** One file to copy: its source and its site path. */
interface Copy {
  from: string;
  path: string;
}

/** The published files of one version: its manifest and each representation and preview file once (from the blob store's verified copy when stored). */
function* versionCopies(registryRoot: string, manifest: Manifest, stored: ReadonlyMap<string, string> | undefined): Generator<Copy> {
  const { id, version } = manifest;
  yield { from: join(registryRoot, ...versionDir(id, version).split('/'), MANIFEST_FILE), path: manifestPath(id, version) };
  const paths = new Set<string>();
  for (const rep of [manifest.preview, ...manifest.representations]) {
    if (!rep) continue;
    const path = representationPath(id, version, rep.id, rep.format);
    if (paths.has(path)) continue; // the preview may be one of the representations
    paths.add(path);
    yield { from: stored?.get(path) ?? join(registryRoot, ...path.split('/')), path };
  }
}

/** The copies of the published files, made as they are asked for, so that memory never holds all of them at once. */
function* publishedCopies(data: SiteData): Generator<Copy> {
  for (const object of data.objects) {
    for (const { manifest } of object.versions) yield* versionCopies(data.registryRoot, manifest, data.storedFiles);
  }
}

/**
 * Copies `aso.object.json` and `representations/*` of every version byte for byte (the check verified each against its
 * hash); a file the last build copied is left alone.
 */
export async function copyPublishedFiles(data: SiteData, writer: OutputWriter): Promise<void> {
  await pMap(publishedCopies(data), ({ from, path }) => writer.copy(from, path), { concurrency: COPIES_IN_FLIGHT });
}

/** Copies each thumbnail of `data` once from the cache; one the last build copied is left alone. */
export async function copyThumbnails(data: SiteData, writer: OutputWriter): Promise<void> {
  await pMap(data.thumbnailFiles, ([path, from]) => writer.copy(from, path), { concurrency: COPIES_IN_FLIGHT });
}
