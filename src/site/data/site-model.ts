/** The shape of what the pages read: the checked registry grouped into objects, tags and worlds (see site-data.ts). */
import type { LedgerCheckpoint } from '@aso-registry/core/log/ledger';
import type { World } from '@aso-registry/core/format/types';
import type { RegistryKeys } from '../../registry/registry-keys.ts';
import type { SiteLog } from './site-log.ts';
import type { VersionEntry } from './version-entry.ts';

/** One object with its versions newest first. */
export interface SiteObject {
  id: string;
  latest: string;
  versions: VersionEntry[];
}

/** Everything the site is made of. */
export interface SiteData {
  registryUrl: string;
  /** The `registry/` folder it was read from. */
  registryRoot: string;
  /** Sorted by id. */
  objects: SiteObject[];
  /** The catalog order: newest publication first (see `newestFirst`). */
  catalog: SiteObject[];
  worlds: World[];
  /** Every tag of any version, its page slug and the objects with a version carrying it, in catalog order. */
  tags: Array<{ tag: string; slug: string; objectIds: string[] }>;
  /** The transparency log over the ledger, or null when the registry keeps no ledger. */
  log: SiteLog | null;
  /** The ledger's checkpoint as the check verified it, or null when the registry keeps no ledger. */
  ledger: LedgerCheckpoint | null;
  /** The log's and the publishers' public keys. */
  keys: RegistryKeys;
  /** Every thumbnail of the site: its site path and the cached file it is copied from. */
  thumbnailFiles: Map<string, string>;
  /** The published files whose bytes came from the blob store: their site path and the verified local copy. */
  storedFiles?: Map<string, string>;
  /** Shards of the search index (see search-shards.ts). */
  searchShards: number;
}
