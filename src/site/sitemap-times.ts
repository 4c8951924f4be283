/** Reads the publication and retraction times of a registry for the sitemap's `lastmod` (see core/sitemap.ts). */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRetractions, RETRACTIONS_FILE } from '../core/retractions.ts';
import { sitemapLastmod, type VersionTimes } from '../core/sitemap.ts';
import { PUBLICATION_FILE } from '../registry/check-version.ts';
import { readOptionalText } from '../registry/ledger-file.ts';

/** Every version's `publishedAt` (from its publication.json) and `retractedAt`. The build has checked them already. */
export async function versionTimes(registryRoot: string): Promise<VersionTimes[]> {
  const retractions = parseRetractions((await readOptionalText(join(registryRoot, RETRACTIONS_FILE))) ?? '').entries;
  const retracted = new Map(retractions.map((r) => [`${r.id}@${r.version}`, r.retractedAt]));
  const out: VersionTimes[] = [];
  const objects = join(registryRoot, 'objects');
  for (const id of await readdir(objects).catch(() => [] as string[])) {
    for (const version of await readdir(join(objects, id, 'versions')).catch(() => [] as string[])) {
      const text = await readFile(join(objects, id, 'versions', version, PUBLICATION_FILE), 'utf8').catch(() => null);
      if (text === null) continue;
      const { publishedAt } = JSON.parse(text) as { publishedAt: string };
      out.push({ id, version, publishedAt, retractedAt: retracted.get(`${id}@${version}`) ?? null });
    }
  }
  return out;
}

/** The sitemap integration's `serialize`: adds `lastmod` to each URL; the registry is read once, on the first URL. */
export function sitemapSerializer(registryRoot: () => string, registryUrl: () => string): <T extends { url: string; lastmod?: string }>(item: T) => Promise<T> {
  let lastmod: Promise<(url: string) => string | undefined> | undefined;
  return async (item) => {
    lastmod ??= versionTimes(registryRoot()).then((times) => sitemapLastmod(registryUrl(), times));
    const at = (await lastmod)(item.url);
    return at ? { ...item, lastmod: at } : item;
  };
}
