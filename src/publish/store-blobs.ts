/** Moves a checked, staged version's files into the blob store: the version folder then holds only its manifest and record. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '@aso-registry/core/format/types';
import type { RegistryBlobs } from '../registry/registry-blobs.ts';
import { REPRESENTATIONS_DIR } from '../registry/registry-files.ts';
import { PublishError } from './publish-error.ts';

/** What storing did: files uploaded, and files the store held already (the same content, by its hash). */
export interface Stored {
  uploaded: number;
  present: number;
}

/** Uploads each representation and the preview of the staged folder `dir` under its SHA-256, then removes `representations/`. */
export async function storeBlobs(dir: string, manifest: Manifest, blobs: RegistryBlobs): Promise<Stored> {
  const stored: Stored = { uploaded: 0, present: 0 };
  const seen = new Set<string>();
  for (const rep of [...manifest.representations, ...(manifest.preview ? [manifest.preview] : [])]) {
    const name = `${rep.id}.${rep.format}`;
    if (seen.has(name)) continue;
    seen.add(name);
    try {
      if (await blobs.upload(join(dir, REPRESENTATIONS_DIR, name), rep)) stored.uploaded++;
      else stored.present++;
    } catch (error) {
      throw new PublishError(`cannot store ${REPRESENTATIONS_DIR}/${name} in ${blobs.label}: ${(error as Error).message}; nothing was written to the registry`);
    }
  }
  await rm(join(dir, REPRESENTATIONS_DIR), { recursive: true, force: true });
  return stored;
}
