/** A small static site written with the project's own API document builders, for SDK tests that need cases the sample registry lacks. */
import { API_PAGE_SIZE, pageCount } from '@aso-registry/core/documents/paging';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { apiCatalog, apiIndex, apiObject, apiVersion, type ObjectRecord, type VersionRecord } from '@aso-registry/core/documents/api-documents';
import { apiPaths, manifestPath, representationPath, representationUrl } from '@aso-registry/core/format/paths';
import { sriOf } from '@aso-registry/core/format/sri';
import { MANIFEST_SCHEMA, type Manifest, type Representation } from '@aso-registry/core/format/types';
import { latestVersion } from '@aso-registry/core/format/latest';
import { sortHistory } from '@aso-registry/core/format/version';

export const REGISTRY_URL = 'https://registry.example.org';

/** One file of a fixture version. */
interface FixtureFile {
  id: string;
  type: string;
  format: string;
  mediaType: string;
  bytes: Uint8Array;
  preview?: boolean;
}

/** One fixture version. */
export interface FixtureVersion {
  id: string;
  version: string;
  createdAt: string;
  files: FixtureFile[];
}

/** What was written: the site folder, each manifest's exact bytes and each file's bytes by site path. */
export interface FixtureSite {
  dir: string;
  manifests: Map<string, { manifest: Manifest; bytes: Uint8Array; recordHash: string }>;
  files: Map<string, Uint8Array>;
  remove(): Promise<void>;
}

/** Bytes of a small glTF document (valid JSON; the SDK only hashes it). */
function gltfBytes(label: string): Uint8Array {
  const doc = { asset: { version: '2.0', generator: label }, scenes: [{ nodes: [] }], scene: 0 };
  return new TextEncoder().encode(JSON.stringify(doc));
}

/** Deterministic pseudo-random bytes. */
export function noiseBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The default fixture: `chair` with releases, a prerelease and build metadata; `lamp` with a preview image. */
export function defaultVersions(): FixtureVersion[] {
  const chair = (version: string, day: number): FixtureVersion => ({
    id: 'chair',
    version,
    createdAt: `2024-03-${String(day).padStart(2, '0')}T10:00:00Z`,
    files: [
      { id: 'mesh', type: 'mesh', format: 'gltf', mediaType: 'model/gltf+json', bytes: gltfBytes(`chair ${version}`) },
      { id: 'cloud', type: 'point-cloud', format: 'ply', mediaType: 'application/octet-stream', bytes: noiseBytes(3000 + day, day) },
    ],
  });
  return [
    chair('1.0.0', 1),
    chair('1.1.0', 2),
    chair('1.2.0+build.7', 3),
    chair('2.0.0-rc.1', 4),
    {
      id: 'lamp',
      version: '0.1.0',
      createdAt: '2024-04-01T08:30:00+02:00',
      files: [
        { id: 'reference', type: 'image', format: 'jpg', mediaType: 'image/jpeg', bytes: noiseBytes(70_000, 99) },
        { id: 'thumb', type: 'image', format: 'jpg', mediaType: 'image/jpeg', bytes: noiseBytes(500, 7), preview: true },
      ],
    },
  ];
}

/** Writes the site of `versions` into a fresh temporary folder. */
export async function writeFixtureSite(versions: FixtureVersion[] = defaultVersions(), registryUrl = REGISTRY_URL, catalogPageSize = API_PAGE_SIZE): Promise<FixtureSite> {
  const dir = await mkdtemp(join(tmpdir(), 'aso-sdk-site-'));
  const manifests: FixtureSite['manifests'] = new Map();
  const files: FixtureSite['files'] = new Map();
  const put = async (path: string, bytes: Uint8Array | string) => {
    const file = join(dir, ...path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
  };

  const records: VersionRecord[] = [];
  for (const v of versions) {
    const reps: Representation[] = [];
    let preview: Representation | undefined;
    for (const f of v.files) {
      const rep: Representation = {
        id: f.id,
        type: f.type,
        format: f.format,
        mediaType: f.mediaType,
        url: representationUrl(registryUrl, v.id, v.version, f.id, f.format),
        byteLength: f.bytes.byteLength,
        hash: await sriOf(f.bytes),
      };
      if (f.preview) preview = rep;
      else reps.push(rep);
      const path = representationPath(v.id, v.version, f.id, f.format);
      files.set(path, f.bytes);
      await put(path, f.bytes);
    }
    const manifest: Manifest = {
      schema: MANIFEST_SCHEMA,
      id: v.id,
      version: v.version,
      name: `The ${v.id}`,
      description: `A ${v.id} for tests.`,
      tags: ['furniture', v.id],
      createdAt: v.createdAt,
      license: 'CC0-1.0',
      provenance: { source: 'fixture', notes: { nested: [1, 2, { deep: true }] } },
      representations: reps,
      ...(preview ? { preview } : {}),
    };
    const bytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
    const recordHash = await sriOf(bytes);
    await put(manifestPath(v.id, v.version), bytes);
    manifests.set(`${v.id}@${v.version}`, { manifest, bytes, recordHash });
    records.push({
      manifest,
      publication: { publicationId: crypto.randomUUID(), publishedAt: '2024-05-01T00:00:00Z', publisher: 'fixture', recordHash },
    });
  }

  const objects: ObjectRecord[] = [...new Set(records.map((r) => r.manifest.id))].sort().map((id) => {
    const own = records.filter((r) => r.manifest.id === id);
    const history = sortHistory(own.map((r) => ({ ...r, version: r.manifest.version, createdAt: r.manifest.createdAt })));
    return { id, latest: latestVersion(own.map((r) => r.manifest.version))!, versions: history };
  });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await put(apiPaths.index(), json(apiIndex(registryUrl, objects)));
  for (let n = 1; n <= pageCount(objects.length, catalogPageSize); n++) {
    await put(apiPaths.objectsPage(n), json(apiCatalog(registryUrl, objects, n, catalogPageSize)));
  }
  for (const object of objects) {
    await put(apiPaths.object(object.id), json(apiObject(registryUrl, object)));
    for (const v of object.versions) {
      await put(apiPaths.version(object.id, v.manifest.version), json(apiVersion(registryUrl, object, v, [])));
    }
  }
  return { dir, manifests, files, remove: () => rm(dir, { recursive: true, force: true }) };
}
