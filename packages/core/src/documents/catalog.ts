/** Groups published versions into objects, tags and worlds for the site's pages. Pure. */
import type { ObjectRecord, VersionRecord } from './api-documents.ts';
import { latestNotRetracted } from '../format/latest.ts';
import { sortHistory } from '../format/version.ts';

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

/**
 * Every tag any version carries, older and retracted versions included, sorted, with the objects that have a version
 * carrying it, in the order given. Every tag a record page shows thus has a page, and a version added to one object
 * changes no link on the record pages of others.
 */
export function tagIndex<V extends VersionRecord>(objects: ReadonlyArray<{ id: string; versions: V[] }>): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const o of objects) {
    const own = new Set(o.versions.flatMap((v) => v.manifest.tags));
    for (const tag of own) {
      const ids = tags.get(tag) ?? [];
      ids.push(o.id);
      tags.set(tag, ids);
    }
  }
  return new Map([...tags.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** The longest tag slug: it names a folder of the site, and file systems cap a name at 255 bytes. */
export const MAX_TAG_SLUG = 64;

/** A URL-safe slug for a tag, at most `MAX_TAG_SLUG` characters (a longer tag is cut). Tags may share one: see {@link tagSlugs}. */
export function tagSlug(tag: string): string {
  const slug = tag
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_TAG_SLUG)
    .replace(/^-+|-+$/g, '');
  return slug || 'tag';
}

/**
 * The page slug of each tag: its {@link tagSlug}, unless other tags share that slug. Then the tag that is its own slug
 * (else the first in code-point order) keeps it, and the others take the next free `-2`, `-3`, ... in that order. It
 * depends only on the tags that share a slug, so a new tag moves no other tag's page unless it shares their slug.
 */
export function tagSlugs(tags: Iterable<string>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const tag of [...new Set(tags)].sort()) {
    const slug = tagSlug(tag);
    const group = groups.get(slug);
    if (group) group.push(tag);
    else groups.set(slug, [tag]);
  }
  const taken = new Set(groups.keys());
  const out = new Map<string, string>();
  for (const [slug, group] of groups) {
    const owner = group.includes(slug) ? slug : group[0]!;
    out.set(owner, slug);
    let n = 2;
    for (const tag of group) {
      if (tag === owner) continue;
      const numbered = (k: number): string => `${slug.slice(0, MAX_TAG_SLUG - 1 - String(k).length)}-${k}`;
      while (taken.has(numbered(n))) n++;
      taken.add(numbered(n));
      out.set(tag, numbered(n));
    }
  }
  return out;
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
