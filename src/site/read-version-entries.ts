/**
 * The pages' view of each version, read back from the registry files the content loader checked. The content store
 * keeps only a small record per version (see content-loader.ts): Astro bundles the whole store into the build as one
 * module, so full manifests there would cost memory and bundling time in proportion to the registry.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { hexToSri } from '../core/sri.ts';
import { versionDir } from '../core/paths.ts';
import type { GltfInventory } from '../core/gltf-inventory.ts';
import type { Retracted } from '../core/retractions.ts';
import type { Manifest, PublicationRecord } from '../core/types.ts';
import { MANIFEST_FILE, PUBLICATION_FILE } from '../registry/check-version.ts';
import pLimit from 'p-limit';
import { readRegistryJson } from '../registry/read-registry-json.ts';

/** A catalog thumbnail as the pages link it. */
export interface EntryThumbnail {
  width: number;
  height: number;
  webp: string;
  jpeg: string;
}

/** What the content store holds for a checked version. */
export interface StoredVersion {
  id: string;
  version: string;
  recordHash: string;
  thumbnail: EntryThumbnail | null;
  /** Set when the version is retracted (`registry/retractions.jsonl`). */
  retracted: Retracted | null;
  /** The inventory of each glTF representation (and preview), by representation id. */
  gltf: Record<string, GltfInventory>;
}

/** A version as the pages read it. */
export interface VersionEntry {
  manifest: Manifest;
  publication: PublicationRecord;
  thumbnail: EntryThumbnail | null;
  retracted: Retracted | null;
  gltf: Record<string, GltfInventory>;
}

/** Files read at once: reading is I/O-bound. */
const READ_CONCURRENCY = 16;

/**
 * Reads the manifest and publication record of every stored version from `registryRoot`. A manifest whose bytes no
 * longer match the record hash the check saw (edited during the build) stops the build, naming the file.
 */
export async function readVersionEntries(stored: readonly StoredVersion[], registryRoot: string): Promise<VersionEntry[]> {
  const out: VersionEntry[] = new Array(stored.length);
  const limit = pLimit(READ_CONCURRENCY);
  await Promise.all(
    stored.map((s, i) => limit(async () => {
      const dir = join(registryRoot, ...versionDir(s.id, s.version).split('/'));
      const manifestFile = join(dir, MANIFEST_FILE);
      // The same reader as the check: what it accepted reads back to the same value here.
      const [manifest, publication] = await Promise.all([readRegistryJson(manifestFile), readRegistryJson(join(dir, PUBLICATION_FILE))]);
      if (!('bytes' in manifest) || 'error' in manifest) throw new Error(`${manifestFile}: ${manifest.error}`);
      if ('error' in publication) throw new Error(`${join(dir, PUBLICATION_FILE)}: ${publication.error}`);
      const hash = hexToSri(createHash('sha256').update(manifest.bytes).digest('hex'));
      if (hash !== s.recordHash) throw new Error(`${manifestFile}: changed during the build (record hash ${s.recordHash}, now ${hash}); build again`);
      out[i] = {
        manifest: manifest.value as Manifest,
        publication: publication.value as PublicationRecord,
        thumbnail: s.thumbnail,
        retracted: s.retracted,
        gltf: s.gltf ?? {},
      };
    })),
  );
  return out;
}
