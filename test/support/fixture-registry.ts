/** Writes small, valid registries in temporary folders for tests, using the same rules as the real one. */
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { representationUrl, versionDir } from '@aso-registry/core/format/paths';
import { sriFromDigest } from '@aso-registry/core/format/sri';
import type { Manifest, PublicationRecord, Representation, World } from '@aso-registry/core/format/types';
import { DEFAULT_REGISTRY_URL } from '../../src/registry/registry-url.ts';

/** A file to publish with a version. */
interface FixtureFile {
  id: string;
  type: string;
  format: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** What a fixture version declares; everything else gets a sensible default. */
export interface FixtureVersion {
  id: string;
  version: string;
  name?: string;
  description?: string;
  tags?: string[];
  license?: string;
  createdAt?: string;
  /** `publication.json`'s `publishedAt`; default 2026-01-02T00:00:00Z. */
  publishedAt?: string;
  files: FixtureFile[];
  preview?: FixtureFile;
  /** The manifest's `provenance`; default `{ source: 'test fixture' }`. */
  provenance?: Record<string, unknown>;
}

/** The SRI of bytes, computed with Node's crypto (independent of the code under test). */
export function sri(bytes: Uint8Array): string {
  return sriFromDigest(new Uint8Array(createHash('sha256').update(bytes).digest()));
}

function representation(v: FixtureVersion, f: FixtureFile, registryUrl: string): Representation {
  return {
    id: f.id,
    type: f.type,
    format: f.format,
    mediaType: f.mediaType,
    url: representationUrl(registryUrl, v.id, v.version, f.id, f.format),
    byteLength: f.bytes.length,
    hash: sri(f.bytes),
  };
}

/** Writes one version (manifest, publication record, files) under `root` and returns its manifest. */
export async function writeVersion(root: string, v: FixtureVersion, registryUrl = DEFAULT_REGISTRY_URL): Promise<Manifest> {
  const dir = join(root, versionDir(v.id, v.version));
  await mkdir(join(dir, 'representations'), { recursive: true });
  const manifest: Manifest = {
    schema: 'aso/object/v0.1',
    id: v.id,
    version: v.version,
    name: v.name ?? v.id,
    description: v.description ?? '',
    tags: v.tags ?? [],
    createdAt: v.createdAt ?? '2026-01-01T00:00:00Z',
    ...(v.license !== undefined ? { license: v.license } : {}),
    provenance: v.provenance ?? { source: 'test fixture' },
    representations: v.files.map((f) => representation(v, f, registryUrl)),
    ...(v.preview ? { preview: representation(v, v.preview, registryUrl) } : {}),
  };
  for (const f of [...v.files, ...(v.preview ? [v.preview] : [])]) {
    await writeFile(join(dir, 'representations', `${f.id}.${f.format}`), f.bytes);
  }
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'aso.object.json'), manifestBytes);
  const publication: PublicationRecord = {
    publicationId: randomUUID(),
    publishedAt: v.publishedAt ?? '2026-01-02T00:00:00Z',
    publisher: 'test',
    recordHash: sri(manifestBytes),
  };
  await writeFile(join(dir, 'publication.json'), `${JSON.stringify(publication, null, 2)}\n`);
  return manifest;
}

/** Writes a world file. */
export async function writeWorld(root: string, world: World): Promise<void> {
  await mkdir(join(root, 'worlds'), { recursive: true });
  await writeFile(join(root, 'worlds', `${world.id}.json`), `${JSON.stringify(world, null, 2)}\n`);
}

/** A fresh empty registry folder (`<tmp>/registry`) and its parent. */
export async function tempRegistry(prefix = 'aso-registry-'): Promise<{ parent: string; root: string }> {
  const parent = await mkdtemp(join(tmpdir(), prefix));
  const root = join(parent, 'registry');
  await mkdir(join(root, 'objects'), { recursive: true });
  return { parent, root };
}

/** A small PNG made with sharp. */
export async function pngBytes(width = 16, height = 12, color = { r: 200, g: 80, b: 40 }): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer());
}
