/** The paged listings of the site: the catalog, each tag's objects and the list of tags, with their route params. */
import { CATALOG_PAGE_SIZE, pageAt, pageCount, type Page } from '@aso-registry/core/documents/paging';
import { taggedObjects } from './site-data.ts';
import type { SiteData, SiteObject } from './site-model.ts';

/** Tags on one page of the tag list. */
export const TAG_LIST_PAGE_SIZE = 200;

/** Params of pages 2 and up of a list of `total` items (page 1 lives at the listing's own path). */
export function laterPages(total: number, size: number): string[] {
  return Array.from({ length: pageCount(total, size) - 1 }, (_, i) => String(i + 2));
}

/** Page `n` of the catalog. */
export function catalogPage(data: SiteData, n: number): Page<SiteObject> {
  return pageAt(data.catalog, CATALOG_PAGE_SIZE, n);
}

/** Page `n` of a tag's objects. */
export function tagPage(data: SiteData, slug: string, n: number): { tag: SiteData['tags'][number]; page: Page<SiteObject> } {
  const { tag, objects } = taggedObjects(data, slug);
  return { tag, page: pageAt(objects, CATALOG_PAGE_SIZE, n) };
}

/** Page `n` of the list of tags, most used first (ties by name). */
export function tagListPage(data: SiteData, n: number): Page<SiteData['tags'][number]> {
  return pageAt(byUse(listedTags(data)), TAG_LIST_PAGE_SIZE, n);
}

const listed = new WeakMap<SiteData, SiteData['tags']>();

/**
 * The tags the listings offer: those a version that is not retracted carries. A tag only retracted versions carry
 * keeps its page (their record pages link it) but is not offered to browse by.
 */
export function listedTags(data: SiteData): SiteData['tags'] {
  let tags = listed.get(data);
  if (!tags) {
    const live = new Set(data.objects.flatMap((o) => o.versions.flatMap((v) => (v.retracted ? [] : v.manifest.tags))));
    tags = data.tags.filter((t) => live.has(t.tag));
    listed.set(data, tags);
  }
  return tags;
}

/** Tags, most used first (ties by name). */
export function byUse<T extends { tag: string; objectIds: string[] }>(tags: readonly T[]): T[] {
  return [...tags].sort((a, b) => b.objectIds.length - a.objectIds.length || a.tag.localeCompare(b.tag));
}

/** The page number of a `[page]` route param. */
export function pageParam(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2) throw new Error(`not a page number: ${value}`);
  return n;
}
