/** A checked version as the pages read it (see load-site.ts). */
import type { GltfInventory } from '@aso-registry/core/format/gltf-inventory';
import type { Retracted } from '@aso-registry/core/log/retractions';
import type { Manifest, PublicationRecord } from '@aso-registry/core/format/types';

/**
 * A catalog thumbnail as the pages link it: a WebP file that fits a card's picture box (and its twin for dense screens
 * when the source is large enough), or a small image shown as it is (thumbnail-as-is.ts).
 */
export interface EntryThumbnail {
  width: number;
  height: number;
  /** Site path of the image, relative to the base URL (`thumbnails/<sha256>-320x240-e2.webp`, or the version's own image file). */
  path: string;
  /** The thumbnail for dense screens, at most twice the size, when there is one. */
  dense?: { width: number; height: number; path: string };
}

/** A version as the pages read it. */
export interface VersionEntry {
  manifest: Manifest;
  publication: PublicationRecord;
  thumbnail: EntryThumbnail | null;
  retracted: Retracted | null;
  gltf: Record<string, GltfInventory>;
}
