/** The site data as it crosses into another thread: structured clone copies it all but the log's Merkle tree, a class. */
import type { SiteData } from './site-data.ts';
import { siteLogFromLines } from './site-log.ts';

/** The site data as it crosses into a render thread: the log as its ledger lines. */
export type PortableSiteData = Omit<SiteData, 'log'> & { ledgerLines: string[] | null };

/** The site data without what does not cross threads (the log's tree). */
export function portableSiteData(data: SiteData): PortableSiteData {
  const { log, ...rest } = data;
  return { ...rest, ledgerLines: log ? log.lines : null };
}

/** The site data again, with its log rebuilt. */
export function siteDataOf(portable: PortableSiteData): SiteData {
  const { ledgerLines, ...rest } = portable;
  return { ...rest, log: ledgerLines ? siteLogFromLines(ledgerLines, rest.registryUrl, rest.keys.logKey) : null };
}
