/** Groups published versions into objects, tags and worlds for the site's pages. Pure. */
import type { ObjectRecord, VersionRecord } from './api-documents.ts';
import { latestNotRetracted, latestRecord } from './latest.ts';
import { sortHistory } from './version.ts';

/** Objects sorted by id, each with its versions newest first and its latest version (retracted versions skipped). */
export function groupObjects<V extends VersionRecord>(versions: readonly V[]): Array<ObjectRecord & { versions: V[] }> {
  const byId = new Map<string, V[]>();
  for (const v of versions) {
    const list = byId.get(v.manifest.id) ?? [];
    list.push(v);
    byId.set(v.manifest.id, list);
  }
  return [...byId.keys()].sort().map((id) => {
    const list = byId.get(id)!;
    const history = sortHistory(list.map((v) => ({ v, version: v.manifest.version, createdAt: v.manifest.createdAt }))).map((h) => h.v);
    const retracted = new Set(list.filter((v) => v.retracted).map((v) => v.manifest.version));
    return { id, versions: history, latest: latestNotRetracted(list.map((v) => v.manifest.version), (v) => retracted.has(v))! };
  });
}

/** Every tag used by an object's latest version, sorted, with the objects that carry it. */
export function tagIndex<V extends VersionRecord>(objects: ReadonlyArray<{ id: string; latest: string; versions: V[] }>): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const o of objects) {
    for (const tag of latestRecord(o).manifest.tags) {
      const ids = tags.get(tag) ?? [];
      ids.push(o.id);
      tags.set(tag, ids);
    }
  }
  return new Map([...tags.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** The longest tag slug: it names a folder of the site, and file systems cap a name at 255 bytes. */
export const MAX_TAG_SLUG = 64;

/** A URL-safe slug for a tag page, at most `MAX_TAG_SLUG` characters (a longer tag is cut; equal slugs get a number). */
export function tagSlug(tag: string): string {
  const slug = tag
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_TAG_SLUG)
    .replace(/^-+|-+$/g, '');
  return slug || 'tag';
}

/** When an object last had a version published: the newest `publishedAt` of its versions. */
export function lastPublished(object: { versions: readonly VersionRecord[] }): string {
  let newest = '';
  let newestMs = -Infinity;
  for (const v of object.versions) {
    const ms = Date.parse(v.publication.publishedAt);
    if (ms > newestMs) [newest, newestMs] = [v.publication.publishedAt, ms];
  }
  return newest;
}

/** The catalog order: the object with the newest publication first, ties by id; stable across builds. */
export function newestFirst<O extends { id: string; versions: readonly VersionRecord[] }>(objects: readonly O[]): O[] {
  const keyed = objects.map((o) => ({ o, ms: Date.parse(lastPublished(o)) || 0 }));
  keyed.sort((a, b) => b.ms - a.ms || (a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0));
  return keyed.map((k) => k.o);
}
