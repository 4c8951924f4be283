/** What the pages read: the checked registry from the content layer, grouped into objects, tags and worlds. */
import { getCollection } from 'astro:content';
import { groupObjects, newestFirst, tagIndex, tagSlug } from '../core/catalog.ts';
import type { World } from '../core/types.ts';
import { readVersionEntries, type StoredVersion, type VersionEntry } from './read-version-entries.ts';
import { registryDir } from '../registry/registry-dir.ts';
import { registryUrl } from '../registry/registry-url.ts';
import { loadRegistryKeys, type RegistryKeys } from '../registry/registry-keys.ts';
import type { VersionLog, VersionLogView } from '../core/version-log.ts';
import type { PublicationRecord } from '../core/types.ts';
import { readSiteLog, versionLogOf, type SiteLog } from './site-log.ts';

/** One object with its versions newest first. */
export interface SiteObject {
  id: string;
  latest: string;
  versions: VersionEntry[];
}

/** Everything the site is made of. */
export interface SiteData {
  registryUrl: string;
  /** Sorted by id. */
  objects: SiteObject[];
  /** The catalog order: newest publication first (see `newestFirst`). */
  catalog: SiteObject[];
  worlds: World[];
  /** Tag -> its page slug and the objects whose latest version carries it, in catalog order. */
  tags: Array<{ tag: string; slug: string; objectIds: string[] }>;
  /** The transparency log over the ledger, or null when the registry keeps no ledger. */
  log: SiteLog | null;
  /** The log's and the publishers' public keys. */
  keys: RegistryKeys;
}

let memo: Promise<SiteData> | undefined;

/** Reads the collections once per build. */
export function siteData(): Promise<SiteData> {
  memo ??= (async () => {
    const stored = (await getCollection('versions')).map((e) => e.data as unknown as StoredVersion);
    const versions = await readVersionEntries(stored, registryDir());
    const worlds = (await getCollection('worlds')).map((e) => e.data as unknown as World).sort((a, b) => a.id.localeCompare(b.id));
    const objects = groupObjects(versions);
    const catalog = newestFirst(objects);
    const used = new Set<string>();
    const tags = [...tagIndex(catalog)].map(([tag, objectIds]) => {
      let slug = tagSlug(tag);
      for (let n = 2; used.has(slug); n++) slug = `${tagSlug(tag)}-${n}`;
      used.add(slug);
      return { tag, slug, objectIds };
    });
    const keys = await loadRegistryKeys(registryDir());
    const log = await readSiteLog(registryDir(), registryUrl(), keys.logKey);
    return { registryUrl: registryUrl(), objects, catalog, worlds, tags, log, keys };
  })();
  return memo;
}

/** The object and version entry for a route, or throws naming what is missing. */
export function findVersion(data: SiteData, id: string, version: string): { object: SiteObject; entry: VersionEntry } {
  const object = data.objects.find((o) => o.id === id);
  const entry = object?.versions.find((v) => v.manifest.version === version);
  if (!object || !entry) throw new Error(`no version ${id}@${version} in the registry`);
  return { object, entry };
}

/** The `log` object of a version's documents (null when the registry keeps no ledger). */
export function versionLogFor(data: SiteData, id: string, version: string): VersionLog | null {
  return versionLogOf(data.log, id, version);
}

/** What a record page hands the browser's log check (null when the registry keeps no ledger). */
export function logViewConfigFor(data: SiteData, id: string, version: string, publication: PublicationRecord): VersionLogView | null {
  const log = versionLogFor(data, id, version);
  if (!log) return null;
  const publisherKeys = publication.signature ? (data.keys.publishers.get(publication.publisher) ?? []).map((k) => k.text) : [];
  return {
    registryUrl: data.registryUrl,
    logKey: data.keys.logKey?.text ?? null,
    log,
    expected: { id, version, recordHash: publication.recordHash, publicationId: publication.publicationId },
    publisherKeys,
  };
}

/** Route params of every version. */
export async function versionPaths(): Promise<Array<{ params: { id: string; version: string } }>> {
  const data = await siteData();
  return data.objects.flatMap((o) => o.versions.map((v) => ({ params: { id: o.id, version: v.manifest.version } })));
}

/** The objects of a tag, in catalog order. */
export function taggedObjects(data: SiteData, slug: string): { tag: SiteData['tags'][number]; objects: SiteObject[] } {
  const tag = data.tags.find((t) => t.slug === slug);
  if (!tag) throw new Error(`no tag page "${slug}"`);
  const byId = new Map(data.objects.map((o) => [o.id, o]));
  return { tag, objects: tag.objectIds.map((id) => byId.get(id)!) };
}
