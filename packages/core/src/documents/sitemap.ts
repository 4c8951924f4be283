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

/** URLs in one sitemap file: the protocol allows 50,000. */
export const SITEMAP_URLS_PER_FILE = 45_000;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** XML text of a URL or date: the five XML specials escaped. */
function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/**
 * The sitemap files of a site: `sitemap-index.xml` pointing at `sitemap-0.xml`, `sitemap-1.xml`... of at most
 * {@link SITEMAP_URLS_PER_FILE} URLs each, every URL with its `lastmod` when it has one.
 */
export function sitemapFiles(registryUrl: string, urls: readonly string[], lastmod: (url: string) => string | undefined): Array<{ path: string; body: string }> {
  const origin = registryUrl.replace(/\/+$/, '');
  const files: Array<{ path: string; body: string }> = [];
  for (let i = 0; i === 0 || i * SITEMAP_URLS_PER_FILE < urls.length; i++) {
    const entries = urls.slice(i * SITEMAP_URLS_PER_FILE, (i + 1) * SITEMAP_URLS_PER_FILE).map((url) => {
      const at = lastmod(url);
      return `<url><loc>${xmlText(url)}</loc>${at ? `<lastmod>${xmlText(at)}</lastmod>` : ''}</url>`;
    });
    files.push({ path: `sitemap-${i}.xml`, body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="${SITEMAP_NS}">${entries.join('')}</urlset>` });
  }
  const index = files.map((f) => `<sitemap><loc>${xmlText(`${origin}/${f.path}`)}</loc></sitemap>`).join('');
  return [{ path: 'sitemap-index.xml', body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="${SITEMAP_NS}">${index}</sitemapindex>` }, ...files];
}
