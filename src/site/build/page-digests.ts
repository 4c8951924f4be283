/**
 * What a record, embed, compare or object page is rendered from, as a digest: a page whose digest is the one the last
 * build recorded (and whose file is still there) is not rendered again. The digest covers the renderer (the site's code)
 * and every value the page reads: the object with all its versions, the worlds that reference the object, the log and
 * its key, and for a record page the page slugs of its version's tags. Nothing else: a version added to another object
 * changes none of them. A version's documents (`agent.json`, API, oEmbed) have a digest of their own, without the tag
 * links and the thumbnails. The listing pages (catalog, tags, worlds, 404) share one digest of the whole site: any
 * change renders them all again, and a rebuild of an unchanged registry renders no page at all (nor loads the renderer).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { comparePagePath, embedPagePath, objectPagePath, versionPagePath } from '@aso-registry/core/format/paths';
import { pagePaths } from '../data/page-paths.ts';
import { logViewConfigFor } from '../data/site-data.ts';
import type { SiteData } from '../data/site-model.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The digest of every version's documents (see {@link documentsKey}), for the renderer `rendererDigest`: the object
 * with all its versions but their thumbnails (the oEmbed document names one, but a thumbnail follows from its image's
 * bytes and the code, which the digest covers), the worlds that reference the object, the log view and key.
 */
export function documentDigests(data: SiteData, rendererDigest: string): Map<string, string> {
  const out = new Map<string, string>();
  const common = sha256(`${rendererDigest}\n${data.registryUrl}\n${data.keys.logKey?.text ?? ''}`);
  for (const object of data.objects) {
    const worlds = data.worlds.filter((w) => w.objects.some((o) => o.id === object.id));
    const withoutThumbnails = { ...object, versions: object.versions.map(({ thumbnail: _, ...entry }) => entry) };
    const own = sha256(`${common}\n${JSON.stringify(withoutThumbnails)}\n${JSON.stringify(worlds)}`);
    for (const entry of object.versions) {
      const { id, version } = entry.manifest;
      const log = JSON.stringify(logViewConfigFor(data, id, version, entry.publication));
      out.set(documentsKey(id, version), sha256(`${own}\n${version}\n${log}`));
    }
  }
  return out;
}

/**
 * The digest of every page of `data`, by site path, and of every version's documents, for the renderer
 * `rendererDigest`. An object or record page's digest adds to its versions' documents digests (`documents`, computed
 * here when not given) the thumbnails of the object's versions, and for a record page the page slugs of its version's
 * tags. Every other page has the site's {@link listingDigest}.
 */
export function pageDigests(data: SiteData, rendererDigest: string, documents = documentDigests(data, rendererDigest)): Map<string, string> {
  const out = new Map(documents);
  const slugOf = new Map(data.tags.map((t) => [t.tag, t.slug]));
  for (const object of data.objects) {
    const thumbnails = JSON.stringify(object.versions.map((v) => v.thumbnail));
    const own = object.versions.map((v) => documents.get(documentsKey(v.manifest.id, v.manifest.version))!);
    // The object page and the documents link no tag page; a record page links those of its own version's tags.
    out.set(objectPagePath(object.id), sha256(`${own.join('\n')}\n${thumbnails}`));
    // The compare page lists the object's versions; an embed page shows its version's files, as its documents do.
    if (object.versions.length > 1) out.set(comparePagePath(object.id), sha256(`compare\n${own.join('\n')}`));
    for (const [i, entry] of object.versions.entries()) {
      const { id, version } = entry.manifest;
      const tags = JSON.stringify(entry.manifest.tags.map((t) => [t, slugOf.get(t) ?? null]));
      out.set(versionPagePath(id, version), sha256(`${own[i]}\n${thumbnails}\n${tags}`));
      out.set(embedPagePath(id, version), sha256(`embed\n${own[i]}`));
    }
  }
  const listing = listingDigest(data, rendererDigest, out);
  for (const path of pagePaths(data)) if (!out.has(path)) out.set(path, listing);
  return out;
}

/**
 * The digest of what the listing pages may read, which is the whole site but the cache's file paths: the renderer, the
 * origin, the keys, the worlds, the tags with their slugs and objects, the catalog order, the log's checkpoint, the
 * number of search shards, and every object page's digest (each object with all its versions and their thumbnails).
 */
function listingDigest(data: SiteData, rendererDigest: string, objectPages: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update(`listing\n${rendererDigest}\n${data.registryUrl}\n${data.searchShards}\n`);
  const publishers = [...data.keys.publishers].map(([name, keys]) => [name, keys.map((k) => k.text)]);
  hash.update(`${JSON.stringify({ logKey: data.keys.logKey?.text ?? null, publishers })}\n`);
  hash.update(`${JSON.stringify(data.worlds)}\n${JSON.stringify(data.tags)}\n${JSON.stringify(data.catalog.map((o) => o.id))}\n`);
  const checkpoint = data.log && { ...data.log.checkpoint, rootHash: Buffer.from(data.log.checkpoint.rootHash).toString('hex'), url: data.log.checkpointUrl };
  hash.update(`${JSON.stringify(checkpoint)}\n`);
  for (const object of data.objects) hash.update(`${object.id} ${objectPages.get(objectPagePath(object.id))}\n`);
  return hash.digest('hex');
}

/** The key of a version's documents (`agent.json`, its API document) among the digests. */
export function documentsKey(id: string, version: string): string {
  return `documents:${versionPagePath(id, version)}`;
}

/** The digests the last build recorded, or none. */
export async function readPageDigests(file: string): Promise<Map<string, string>> {
  try {
    return new Map(Object.entries(JSON.parse(await readFile(file, 'utf8')) as Record<string, string>));
  } catch {
    return new Map();
  }
}

/** Records the digests of the pages this build wrote or kept. */
export async function writePageDigests(file: string, digests: ReadonlyMap<string, string>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(Object.fromEntries(digests)));
}
