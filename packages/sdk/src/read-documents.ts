/** Checks that the API documents have the documented shape (packages/core/src/documents/api-types.ts) and names the first wrong field. */
import type {
  ApiCatalog,
  ApiIndex,
  ApiObject,
  ApiObjectSummary,
  ApiRepresentation,
  ApiVersion,
  ApiVersionSummary,
} from '@aso-registry/core/documents/api-types';
import { isSri } from '@aso-registry/core/format/sri';
import type { PublicationRecord } from '@aso-registry/core/format/types';
import { isExactVersion } from '@aso-registry/core/format/version';
import { InvalidResponseError } from './errors.ts';

type Json = Record<string, unknown>;

/** Walks one document and throws {@link InvalidResponseError} at the first field that is not as documented. */
class Reader {
  constructor(readonly source: string) {}

  fail(pointer: string, problem: string): never {
    throw new InvalidResponseError(this.source, pointer, problem);
  }

  object(value: unknown, pointer: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(pointer, `must be an object, got ${kind(value)}`);
    return value as Json;
  }

  array(value: unknown, pointer: string): unknown[] {
    if (!Array.isArray(value)) this.fail(pointer, `must be an array, got ${kind(value)}`);
    return value;
  }

  string(obj: Json, key: string, pointer: string): string {
    const value = obj[key];
    if (typeof value !== 'string') this.fail(`${pointer}/${key}`, `must be a string, got ${kind(value)}`);
    return value;
  }

  strings(obj: Json, key: string, pointer: string): string[] {
    const list = this.array(obj[key], `${pointer}/${key}`);
    list.forEach((item, i) => {
      if (typeof item !== 'string') this.fail(`${pointer}/${key}/${i}`, `must be a string, got ${kind(item)}`);
    });
    return list as string[];
  }

  constant(obj: Json, key: string, expected: string, pointer: string): void {
    if (obj[key] !== expected) this.fail(`${pointer}/${key}`, `must be ${JSON.stringify(expected)}, got ${JSON.stringify(obj[key]) ?? 'nothing'}`);
  }

  boolean(obj: Json, key: string, pointer: string): boolean {
    const value = obj[key];
    if (typeof value !== 'boolean') this.fail(`${pointer}/${key}`, `must be a boolean, got ${kind(value)}`);
    return value;
  }

  count(obj: Json, key: string, pointer: string): number {
    const value = obj[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      this.fail(`${pointer}/${key}`, `must be a non-negative integer, got ${JSON.stringify(value) ?? 'nothing'}`);
    }
    return value;
  }

  absoluteUrl(obj: Json, key: string, pointer: string): string {
    const value = this.string(obj, key, pointer);
    if (!isAbsoluteUrl(value)) this.fail(`${pointer}/${key}`, `must be an absolute URL, got ${JSON.stringify(value)}`);
    return value;
  }

  version(obj: Json, key: string, pointer: string): string {
    const value = this.string(obj, key, pointer);
    if (!isExactVersion(value)) this.fail(`${pointer}/${key}`, `must be a semantic version, got ${JSON.stringify(value)}`);
    return value;
  }

  sri(obj: Json, key: string, pointer: string): string {
    const value = this.string(obj, key, pointer);
    if (!isSri(value)) this.fail(`${pointer}/${key}`, `must be a sha256-<base64> hash, got ${JSON.stringify(value)}`);
    return value;
  }
}

function isAbsoluteUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function kind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** `api/v1/index.json`. */
export function readIndex(value: unknown, url: string): ApiIndex {
  const r = new Reader(url);
  const doc = r.object(value, '');
  r.constant(doc, 'schema', 'aso/api/v1/index', '');
  r.absoluteUrl(doc, 'registryUrl', '');
  r.absoluteUrl(doc, 'objects', '');
  return doc as unknown as ApiIndex;
}

/** A page of the catalog, `api/v1/objects.json` or `api/v1/objects/page/<n>.json`. */
export function readCatalog(value: unknown, url: string): ApiCatalog {
  const r = new Reader(url);
  const doc = r.object(value, '');
  r.constant(doc, 'schema', 'aso/api/v1/objects', '');
  for (const key of ['page', 'pageCount', 'total'] as const) {
    if (!Number.isInteger(doc[key]) || (doc[key] as number) < (key === 'total' ? 0 : 1)) r.fail(`/${key}`, `must be a ${key === 'total' ? 'non-negative' : 'positive'} integer, got ${kind(doc[key])}`);
  }
  if ((doc.page as number) > (doc.pageCount as number)) r.fail('/page', `must be at most pageCount (${String(doc.pageCount)}), got ${String(doc.page)}`);
  for (const key of ['prev', 'next'] as const) if (doc[key] !== null) r.absoluteUrl(doc, key, '');
  if ((doc.next === null) !== (doc.page === doc.pageCount)) r.fail('/next', doc.next === null ? `is null before the last page (${String(doc.page)} of ${String(doc.pageCount)})` : 'must be null on the last page');
  r.array(doc.objects, '/objects').forEach((item, i) => readObjectSummary(r, item, `/objects/${i}`));
  return doc as unknown as ApiCatalog;
}

function readObjectSummary(r: Reader, value: unknown, pointer: string): ApiObjectSummary {
  const o = r.object(value, pointer);
  for (const key of ['id', 'name', 'description'] as const) r.string(o, key, pointer);
  r.strings(o, 'tags', pointer);
  r.version(o, 'latest', pointer);
  r.strings(o, 'versions', pointer).forEach((v, i) => {
    if (!isExactVersion(v)) r.fail(`${pointer}/versions/${i}`, `must be a semantic version, got ${JSON.stringify(v)}`);
  });
  r.absoluteUrl(o, 'pageUrl', pointer);
  r.absoluteUrl(o, 'apiUrl', pointer);
  return o as unknown as ApiObjectSummary;
}

/** `api/v1/objects/<id>.json`, which must describe object `id`. */
export function readObject(value: unknown, url: string, id: string): ApiObject {
  const r = new Reader(url);
  const doc = r.object(value, '');
  r.constant(doc, 'schema', 'aso/api/v1/object', '');
  r.constant(doc, 'id', id, '');
  r.string(doc, 'name', '');
  r.version(doc, 'latest', '');
  r.array(doc.versions, '/versions').forEach((item, i) => readVersionSummary(r, item, `/versions/${i}`));
  return doc as unknown as ApiObject;
}

function readVersionSummary(r: Reader, value: unknown, pointer: string): ApiVersionSummary {
  const v = r.object(value, pointer);
  r.version(v, 'version', pointer);
  r.string(v, 'createdAt', pointer);
  r.string(v, 'publishedAt', pointer);
  r.boolean(v, 'prerelease', pointer);
  r.sri(v, 'recordHash', pointer);
  for (const key of ['manifestUrl', 'pageUrl', 'apiUrl'] as const) r.absoluteUrl(v, key, pointer);
  return v as unknown as ApiVersionSummary;
}

/**
 * `api/v1/objects/<id>/versions/<version>.json`, which must describe `id`@`version` with a valid manifest.
 * The schema validator is loaded on first use, so that a bundle that only lists objects does without it.
 */
export async function readVersion(value: unknown, url: string, id: string, version: string): Promise<ApiVersion> {
  const { manifestProblems } = await import('@aso-registry/core/format/validate-manifest');
  const r = new Reader(url);
  const doc = r.object(value, '');
  r.constant(doc, 'schema', 'aso/api/v1/version', '');
  r.constant(doc, 'id', id, '');
  r.constant(doc, 'version', version, '');
  r.version(doc, 'latest', '');
  const manifest = r.object(doc.manifest, '/manifest');
  const problem = manifestProblems(manifest)[0];
  if (problem) r.fail(`/manifest${problem.pointer}`, problem.message);
  r.constant(manifest, 'id', id, '/manifest');
  r.constant(manifest, 'version', version, '/manifest');
  readPublication(r, doc.publication, '/publication');
  for (const key of ['manifestUrl', 'agentUrl', 'pageUrl'] as const) r.absoluteUrl(doc, key, '');
  r.array(doc.representations, '/representations').forEach((item, i) => readRepresentation(r, item, `/representations/${i}`));
  r.array(doc.worlds, '/worlds').forEach((item, i) => {
    const world = r.object(item, `/worlds/${i}`);
    r.string(world, 'id', `/worlds/${i}`);
    r.string(world, 'name', `/worlds/${i}`);
  });
  return doc as unknown as ApiVersion;
}

function readPublication(r: Reader, value: unknown, pointer: string): PublicationRecord {
  const p = r.object(value, pointer);
  for (const key of ['publicationId', 'publishedAt', 'publisher'] as const) r.string(p, key, pointer);
  r.sri(p, 'recordHash', pointer);
  return p as unknown as PublicationRecord;
}

function readRepresentation(r: Reader, value: unknown, pointer: string): ApiRepresentation {
  const rep = r.object(value, pointer);
  for (const key of ['id', 'type', 'format', 'mediaType', 'compatibility', 'sha256'] as const) r.string(rep, key, pointer);
  r.absoluteUrl(rep, 'url', pointer);
  r.count(rep, 'byteLength', pointer);
  r.sri(rep, 'hash', pointer);
  if (rep.role !== 'representation' && rep.role !== 'preview') {
    r.fail(`${pointer}/role`, `must be "representation" or "preview", got ${JSON.stringify(rep.role) ?? 'nothing'}`);
  }
  r.strings(rep, 'runtimes', pointer);
  r.array(rep.reports, `${pointer}/reports`);
  // A glTF file's inventory; null for other files (absent from registries built before it existed).
  if (rep.gltf !== undefined && rep.gltf !== null) {
    const gltf = r.object(rep.gltf, `${pointer}/gltf`);
    for (const key of ['triangles', 'vertices', 'drawCalls', 'materials', 'textures', 'animations', 'skins'] as const) r.count(gltf, key, `${pointer}/gltf`);
    r.strings(gltf, 'extensionsUsed', `${pointer}/gltf`);
    r.strings(gltf, 'extensionsRequired', `${pointer}/gltf`);
  }
  return rep as unknown as ApiRepresentation;
}
