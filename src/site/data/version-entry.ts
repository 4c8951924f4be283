/** A checked version as the pages read it (see load-site.ts). */
import type { GltfInventory } from '@aso-registry/core/format/gltf-inventory';
import type { Retracted } from '@aso-registry/core/log/retractions';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';

/** A catalog thumbnail as the pages link it: one WebP file, or a small image shown as it is (thumbnail-as-is.ts). */
export interface EntryThumbnail {
  width: number;
  height: number;
  /** Site path of the image, relative to the base URL (`thumbnails/<sha256>-w320-e2.webp`, or the version's own image file). */
  path: string;
}

/** A version as the pages read it. */
export interface VersionEntry {
  manifest: Manifest;
  publication: PublicationRecord;
  thumbnail: EntryThumbnail | null;
  retracted: Retracted | null;
  gltf: Record<string, GltfInventory>;
}
