/** Every HTML page of the site, as site paths (`objects/<id>/` is written as `objects/<id>/index.html`). */
import { CATALOG_PAGE_SIZE } from '@aso-registry/core/documents/paging';
import { objectPagePath, versionPagePath } from '@aso-registry/core/format/paths';
import { laterPages, TAG_LIST_PAGE_SIZE } from './listings.ts';
import { searchShardOf } from '../search/search-shards.ts';
import type { SiteData, SiteObject } from './site-model.ts';

/** The page every host answers for a path the site does not have. */
export const NOT_FOUND_PAGE = '404.html';

/** The site path of every page: catalog and tag listings, objects, versions, worlds, and the not-found page. */
export function pagePaths(data: SiteData): string[] {
  return [
    '',
    ...laterPages(data.catalog.length, CATALOG_PAGE_SIZE).map((n) => `page/${n}/`),
    'tags/',
    ...laterPages(data.tags.length, TAG_LIST_PAGE_SIZE).map((n) => `tags/page/${n}/`),
    ...data.tags.flatMap((t) => [`tags/${t.slug}/`, ...laterPages(t.objectIds.length, CATALOG_PAGE_SIZE).map((n) => `tags/${t.slug}/page/${n}/`)]),
    // Objects shard by shard, so that the search index completes, writes and lets go of one shard after another.
    ...objectsByShard(data).flatMap((o) => [objectPagePath(o.id), ...o.versions.map((v) => versionPagePath(o.id, v.manifest.version))]),
    ...data.worlds.map((w) => `worlds/${w.id}/`),
    NOT_FOUND_PAGE,
  ];
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
