/** A checked version as the pages read it (see load-site.ts). */
import type { GltfInventory } from '../core/gltf-inventory.ts';
import type { Retracted } from '../core/retractions.ts';
import type { Manifest, PublicationRecord } from '../core/types.ts';

/** A catalog thumbnail as the pages link it. */
export interface EntryThumbnail {
  width: number;
  height: number;
  webp: string;
  jpeg: string;
}

/** A version as the pages read it. */
export interface VersionEntry {
  manifest: Manifest;
  publication: PublicationRecord;
  thumbnail: EntryThumbnail | null;
  retracted: Retracted | null;
  gltf: Record<string, GltfInventory>;
}
