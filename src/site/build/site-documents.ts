/**
 * Every document of the site that is not an HTML page: each version's `agent.json` and oEmbed document, the JSON API,
 * the feeds, `llms.txt`, `robots.txt`, the sitemap and the host's `_headers`. Computed from the site's data with the core
 * functions and written by the build in a phase of its own (write-documents.ts), not through Astro's page pipeline
 * (see docs/decisions/0009-documents-written-from-core.md); `astro dev` serves the same documents from one route
 * (pages/[...document].ts).
 */
import { agentDocument, apiCatalog, apiIndex, apiLogInfo, apiObject, apiVersion } from '@aso-registry/core/documents/api-documents';
import { atomFeed, jsonFeed } from '@aso-registry/core/documents/feeds';
import { headersFile, hostHeaderRules } from '@aso-registry/core/documents/host-headers';
import { llmsTxt } from '@aso-registry/core/documents/llms-txt';
import { API_PAGE_SIZE, pageCount } from '@aso-registry/core/documents/paging';
import { oembedDocument } from '@aso-registry/core/documents/oembed';
import { agentPath, API_BASE, apiPaths, oembedPath, siteUrl } from '@aso-registry/core/format/paths';
import { sitemapFiles, sitemapLastmod } from '@aso-registry/core/documents/sitemap';
import { ledgerCheckpointDocument } from './ledger-site.ts';
import { inSitemap, pagePaths } from '../data/page-paths.ts';
import { versionLogFor } from '../data/site-data.ts';
import type { SiteData } from '../data/site-model.ts';

/** One document: its site path and its bytes as text. */
export interface SiteDocument {
  path: string;
  body: string;
}

/** A JSON document as the site writes it: two-space indents and a final newline. */
function jsonBody(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Where each version of the site is: its object's index in `data.objects` and its own in the object's versions. */
export function* versionPositions(data: SiteData): Generator<{ id: string; version: string; objectIndex: number; versionIndex: number }> {
  for (const [objectIndex, object] of data.objects.entries()) {
    for (const [versionIndex, { manifest }] of object.versions.entries()) yield { id: manifest.id, version: manifest.version, objectIndex, versionIndex };
  }
}

/**
 * The documents of one version: its `agent.json`, its API document and its oEmbed document. The oEmbed document names
 * the version's thumbnail, which its digest leaves out: a thumbnail follows from the version's bytes and the code.
 */
export function versionDocuments(data: SiteData, objectIndex: number, versionIndex: number): SiteDocument[] {
  const object = data.objects[objectIndex]!;
  const entry = object.versions[versionIndex]!;
  const { id, version, name } = entry.manifest;
  const v = { ...entry, log: versionLogFor(data, id, version) };
  const thumbnail = entry.thumbnail && { url: siteUrl(data.registryUrl, entry.thumbnail.path), width: entry.thumbnail.width, height: entry.thumbnail.height };
  return [
    { path: agentPath(id, version), body: jsonBody(agentDocument(data.registryUrl, object, v)) },
    { path: apiPaths.version(id, version), body: jsonBody(apiVersion(data.registryUrl, object, v, data.worlds)) },
    { path: oembedPath(id, version), body: jsonBody(oembedDocument({ registryUrl: data.registryUrl, id, version, name }, thumbnail)) },
  ];
}

/** The documents that list or summarise the whole registry (the ones a new version changes besides its own). */
export async function indexDocuments(data: SiteData): Promise<SiteDocument[]> {
  const { registryUrl } = data;
  const versions = data.objects.flatMap((o) => o.versions);
  const log = data.log && apiLogInfo(registryUrl, data.log.checkpointUrl, data.log.checkpoint.origin, data.keys.logKey?.text ?? null);
  const lastmod = sitemapLastmod(
    registryUrl,
    versions.map((v) => ({ id: v.manifest.id, version: v.manifest.version, publishedAt: v.publication.publishedAt, retractedAt: v.retracted?.retractedAt ?? null })),
  );
  const pages = pagePaths(data).filter(inSitemap).map((p) => siteUrl(registryUrl, p));
  return [
    { path: apiPaths.index(), body: jsonBody(apiIndex(registryUrl, data.objects, log)) },
    { path: `${API_BASE}/ledger.json`, body: jsonBody(await ledgerCheckpointDocument(data.registryRoot, registryUrl, data.ledger)) },
    { path: apiPaths.worlds(), body: jsonBody({ schema: 'aso/api/v1/worlds', worlds: data.worlds }) },
    { path: apiPaths.objects(), body: jsonBody(apiCatalog(registryUrl, data.catalog, 1)) },
    ...Array.from({ length: pageCount(data.catalog.length, API_PAGE_SIZE) - 1 }, (_, i) => ({
      path: apiPaths.objectsPage(i + 2),
      body: jsonBody(apiCatalog(registryUrl, data.catalog, i + 2)),
    })),
    ...data.objects.map((o) => ({ path: apiPaths.object(o.id), body: jsonBody(apiObject(registryUrl, o)) })),
    { path: 'feed.xml', body: atomFeed(registryUrl, versions) },
    { path: 'feed.json', body: jsonFeed(registryUrl, versions) },
    { path: 'llms.txt', body: llmsTxt(registryUrl, data.objects) },
    { path: 'robots.txt', body: `User-agent: *\nAllow: /\n\nSitemap: ${registryUrl}/sitemap-index.xml\n` },
    ...sitemapFiles(registryUrl, pages, lastmod),
    { path: '_headers', body: headersFile(hostHeaderRules(representationFiles(versions.map((v) => v.manifest)))) },
  ];
}

/** The file names of every representation and preview of these manifests. */
function representationFiles(manifests: ReadonlyArray<{ representations: ReadonlyArray<{ id: string; format: string }>; preview?: { id: string; format: string } }>): string[] {
  return manifests.flatMap((m) => [...m.representations, ...(m.preview ? [m.preview] : [])].map((r) => `${r.id}.${r.format}`));
}

/** The site paths of a version's documents (those `versionDocuments` writes). */
export function versionDocumentPaths(id: string, version: string): string[] {
  return [agentPath(id, version), apiPaths.version(id, version), oembedPath(id, version)];
}

/** Every document of the site. */
export async function siteDocuments(data: SiteData): Promise<SiteDocument[]> {
  const perVersion = data.objects.flatMap((o, i) => o.versions.map((_, j) => versionDocuments(data, i, j))).flat();
  return [...perVersion, ...(await indexDocuments(data))];
}
