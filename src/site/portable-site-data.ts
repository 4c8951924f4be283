/**
 * The site data as it crosses into a render thread: structured clone copies it all but the log's Merkle tree (a class,
 * rebuilt from the ledger's lines) and the thumbnails' cache files, which only the build's thread copies (pages link
 * each version's `thumbnail.path`).
 */
import type { SiteData } from './site-data.ts';
import { siteLogFromLines } from './site-log.ts';

/** The site data as it crosses into a render thread: the log as its ledger lines, no thumbnail files. */
export type PortableSiteData = Omit<SiteData, 'log' | 'thumbnailFiles'> & { ledgerLines: string[] | null };

/** The site data without what does not cross threads (the log's tree) or is not read there (the thumbnail files). */
export function portableSiteData(data: SiteData): PortableSiteData {
  const { log, thumbnailFiles: _, ...rest } = data;
  return { ...rest, ledgerLines: log ? log.lines : null };
}

/** The site data again, with its log rebuilt and no thumbnail files to copy. */
export function siteDataOf(portable: PortableSiteData): SiteData {
  const { ledgerLines, ...rest } = portable;
  return { ...rest, thumbnailFiles: new Map(), log: ledgerLines ? siteLogFromLines(ledgerLines, rest.registryUrl, rest.keys.logKey) : null };
}
