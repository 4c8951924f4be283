/** Small manifests and version records built in code for the tests of `packages/core/src/`. */
import { createHash } from 'node:crypto';
import type { VersionRecord } from '@aso-registry/core/documents/api-documents';
import type { Manifest, PublicationRecord, Representation } from '@aso-registry/core/format/types';

export const REGISTRY = 'https://registry.test';

/** The SRI and the hex of the SHA-256 of `text`, computed with Node's crypto. */
export function digestOf(text: string): { sri: string; hex: string } {
  const hash = createHash('sha256').update(text);
  const digest = hash.digest();
  return { sri: `sha256-${digest.toString('base64')}`, hex: digest.toString('hex') };
}

/** A representation of `id`, hashed over its id so every file has its own hash. */
export function rep(id: string, kind: 'glb' | 'gltf' | 'png' | 'jpg' | 'ply', over: Partial<Representation> = {}): Representation {
  const kinds = {
    glb: { type: 'mesh', mediaType: 'model/gltf-binary' },
    gltf: { type: 'mesh', mediaType: 'model/gltf+json' },
    png: { type: 'image', mediaType: 'image/png' },
    jpg: { type: 'image', mediaType: 'image/jpeg' },
    ply: { type: 'point-cloud', mediaType: 'application/octet-stream' },
  } as const;
  return {
    id,
    format: kind,
    ...kinds[kind],
    url: `${REGISTRY}/files/${id}.${kind}`,
    byteLength: id.length * 100,
    hash: digestOf(id).sri,
    ...over,
  };
}

/** A manifest of `id@version`; `over` replaces any field. */
export function manifest(id: string, version: string, over: Partial<Manifest> = {}): Manifest {
  return {
    schema: 'aso/object/v0.1',
    id,
    version,
    name: `${id} ${version}`,
    description: `The ${id}.`,
    tags: [],
    createdAt: '2026-01-01T00:00:00Z',
    provenance: { source: 'test' },
    representations: [rep('mesh', 'glb')],
    ...over,
  };
}

/** A publication record whose record hash is the hash of `id@version`. */
function publication(id: string, version: string, publishedAt = '2026-01-02T00:00:00Z'): PublicationRecord {
  return { publicationId: `pub-${id}-${version}`, publishedAt, publisher: 'test', recordHash: digestOf(`${id}@${version}`).sri };
}

/** A version record of `id@version`. */
export function record(id: string, version: string, over: Partial<Manifest> = {}, retracted: VersionRecord['retracted'] = null): VersionRecord {
  return { manifest: manifest(id, version, over), publication: publication(id, version), retracted };
}
