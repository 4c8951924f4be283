/** Every HTML page of the site, as site paths (`objects/<id>/` is written as `objects/<id>/index.html`). */
import { CATALOG_PAGE_SIZE } from '@aso-registry/core/documents/paging';
import { comparePagePath, embedPagePath, objectPagePath, versionPagePath } from '@aso-registry/core/format/paths';
import { laterPages, listedTags, TAG_LIST_PAGE_SIZE } from './listings.ts';
import { searchShardOf } from '../search/search-shards.ts';
import type { SiteData, SiteObject } from './site-model.ts';

/** The page every host answers for a path the site does not have. */
export const NOT_FOUND_PAGE = '404.html';

/**
 * The site path of every page: catalog and tag listings, objects (with their compare page when they have two versions
 * or more), versions and their embed pages, worlds, and the not-found page.
 */
export function pagePaths(data: SiteData): string[] {
  return [
    '',
    ...laterPages(data.catalog.length, CATALOG_PAGE_SIZE).map((n) => `page/${n}/`),
    'tags/',
    ...laterPages(listedTags(data).length, TAG_LIST_PAGE_SIZE).map((n) => `tags/page/${n}/`),
    ...data.tags.flatMap((t) => [`tags/${t.slug}/`, ...laterPages(t.objectIds.length, CATALOG_PAGE_SIZE).map((n) => `tags/${t.slug}/page/${n}/`)]),
    // Objects shard by shard, so that the search index completes, writes and lets go of one shard after another.
    ...objectsByShard(data).flatMap((o) => [
      objectPagePath(o.id),
      ...(o.versions.length > 1 ? [comparePagePath(o.id)] : []),
      ...o.versions.flatMap((v) => [versionPagePath(o.id, v.manifest.version), embedPagePath(o.id, v.manifest.version)]),
    ]),
    ...data.worlds.map((w) => `worlds/${w.id}/`),
    NOT_FOUND_PAGE,
  ];
}

/** A compare page (`objects/<id>/compare/`) or an embed page (`objects/<id>/versions/<v>/embed/`). */
const SCRIPTED_OR_FRAMED = /^objects\/[^/]+\/(compare|versions\/[^/]+\/embed)\/$/;

/**
 * Whether the sitemap lists a page: every page but the not-found page, the embed pages (made for iframes on other
 * sites) and the compare pages (whose comparison the browser makes from the API documents).
 */
export function inSitemap(path: string): boolean {
  return path !== NOT_FOUND_PAGE && !SCRIPTED_OR_FRAMED.test(path);
}

/** The objects in the order of their search shard, then of their id. */
function objectsByShard(data: SiteData): SiteObject[] {
  const shard = new Map(data.objects.map((o) => [o.id, searchShardOf(o.id, data.searchShards)]));
  return [...data.objects].sort((a, b) => shard.get(a.id)! - shard.get(b.id)! || (a.id < b.id ? -1 : 1));
}

/** The file a page is written to, relative to the site root. */
export function pageFile(path: string): string {
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}
