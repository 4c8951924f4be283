/**
 * What the pages read: the checked registry grouped into objects, tags and worlds. `npm run build` loads it once
 * (load-site.ts) and hands it to the page renderer with {@link provideSiteData}; `astro dev` loads it on its first request.
 */
import { cacheDir, registryDir } from '../../registry/registry-dir.ts';
import { registryUrl } from '../../registry/registry-url.ts';
import type { VersionLog, VersionLogView } from '@aso-registry/core/log/version-log';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { versionLogOf } from './site-log.ts';
import type { SiteData, SiteObject } from './site-model.ts';
import type { VersionEntry } from './version-entry.ts';

/**
 * Where the build leaves the data for the renderer. The renderer is a separate bundle with its own copy of this module,
 * so the two meet on a global of the process rather than on a module variable.
 */
const SITE_DATA = Symbol.for('aso-registry.site-data');

type WithSiteData = typeof globalThis & { [SITE_DATA]?: Promise<SiteData> };

/** Hands the data of this build to the pages rendered in this process. */
export function provideSiteData(data: SiteData): void {
  (globalThis as WithSiteData)[SITE_DATA] = Promise.resolve(data);
}

/** The data of this build: what the build provided, else the registry of the environment loaded once (`astro dev`). */
export function siteData(): Promise<SiteData> {
  const g = globalThis as WithSiteData;
  g[SITE_DATA] ??= Promise.all([import('./load-site.ts'), import('../../registry/registry-blobs.ts')]).then(([{ loadSite }, { openRegistryBlobs }]) => {
    const blobs = openRegistryBlobs(process.env, cacheDir());
    return loadSite({ registryRoot: registryDir(), registryUrl: registryUrl(), cacheDir: cacheDir(), warn: (m) => console.warn(m), ...(blobs ? { blobs } : {}) });
  });
  return g[SITE_DATA];
}

const objectIndexes = new WeakMap<SiteData, Map<string, SiteObject>>();

/** The object of `id`, looked up in an index made once per site (a page per version must not scan every object). */
export function findObject(data: SiteData, id: string): SiteObject | undefined {
  let index = objectIndexes.get(data);
  if (!index) {
    index = new Map(data.objects.map((o) => [o.id, o]));
    objectIndexes.set(data, index);
  }
  return index.get(id);
}

/** The object and version entry for a route, or throws naming what is missing. */
export function findVersion(data: SiteData, id: string, version: string): { object: SiteObject; entry: VersionEntry } {
  const object = findObject(data, id);
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

/** The objects of a tag, in catalog order. */
export function taggedObjects(data: SiteData, slug: string): { tag: SiteData['tags'][number]; objects: SiteObject[] } {
  const tag = data.tags.find((t) => t.slug === slug);
  if (!tag) throw new Error(`no tag page "${slug}"`);
  const byId = new Map(data.objects.map((o) => [o.id, o]));
  return { tag, objects: tag.objectIds.map((id) => byId.get(id)!) };
}
