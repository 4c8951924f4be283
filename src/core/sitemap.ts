/** The `lastmod` of each sitemap URL, from publication (and retraction) times. Pure. */

/** When something happened to a version. */
export interface VersionTimes {
  id: string;
  version: string;
  publishedAt: string;
  retractedAt?: string | null;
}

/**
 * A function from a page URL on the registry to its `lastmod`: a record page changes when its version is published or
 * retracted (and when a newer version appears in its history), an object page with any of its versions, and every
 * other page (catalog, tags, worlds) with the newest event of the registry.
 */
export function sitemapLastmod(registryUrl: string, versions: readonly VersionTimes[]): (url: string) => string | undefined {
  const ms = (v: VersionTimes): number => Math.max(Date.parse(v.publishedAt) || 0, Date.parse(v.retractedAt ?? '') || 0);
  const byObject = new Map<string, number>();
  const byVersion = new Map<string, number>();
  let newest = 0;
  for (const v of versions) {
    const t = ms(v);
    byVersion.set(`${v.id}/${v.version}`, t);
    byObject.set(v.id, Math.max(byObject.get(v.id) ?? 0, t));
    newest = Math.max(newest, t);
  }
  const prefix = `${registryUrl.replace(/\/+$/, '')}/`;
  const iso = (t: number | undefined): string | undefined => (t ? new Date(t).toISOString() : undefined);
  return (url) => {
    if (!url.startsWith(prefix)) return undefined;
    const path = decodeURIComponent(url.slice(prefix.length));
    const record = /^objects\/([^/]+)\/versions\/([^/]+)\/$/.exec(path);
    if (record) return iso(Math.max(byVersion.get(`${record[1]}/${record[2]}`) ?? 0, byObject.get(record[1]!) ?? 0) || undefined);
    const object = /^objects\/([^/]+)\/$/.exec(path);
    if (object) return iso(byObject.get(object[1]!));
    return iso(newest || undefined);
  };
}
