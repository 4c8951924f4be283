/**
 * The site data as it crosses into a render thread: structured clone copies it all but the log's Merkle tree (a class,
 * which crosses as the hashes of its levels and is made again from them, without hashing anything) and the thumbnails'
 * cache files, which only the build's thread copies (pages link each version's `thumbnail.path`).
 */
import { MerkleTree } from '@aso-registry/core/log/merkle-tree';
import type { SiteData } from '../data/site-model.ts';
import type { SiteLog } from '../data/site-log.ts';

/** The log as it crosses: its tree as the hashes of the tree's levels. */
type PortableSiteLog = Omit<SiteLog, 'tree'> & { treeLevels: readonly Uint8Array[] };

/** The site data as it crosses into a render thread: the log's tree as its hashes, no thumbnail files. */
export type PortableSiteData = Omit<SiteData, 'log' | 'thumbnailFiles'> & { log: PortableSiteLog | null };

/** The site data without what does not cross threads (the log's tree, a class) or is not read there (the thumbnail files). */
export function portableSiteData(data: SiteData): PortableSiteData {
  const { log, thumbnailFiles: _, ...rest } = data;
  if (!log) return { ...rest, log: null };
  const { tree, ...logRest } = log;
  return { ...rest, log: { ...logRest, treeLevels: tree.hashLevels() } };
}

/** The site data again, with its log's tree made from its hashes and no thumbnail files to copy. */
export function siteDataOf(portable: PortableSiteData): SiteData {
  const { log, ...rest } = portable;
  if (!log) return { ...rest, thumbnailFiles: new Map(), log: null };
  const { treeLevels, ...logRest } = log;
  return { ...rest, thumbnailFiles: new Map(), log: { ...logRest, tree: MerkleTree.fromLevels(treeLevels, logRest.lines.length) } };
}
