/** Small registry trees built in temp folders, for the reader's tests. */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { afterEach } from 'vitest';
import { representationUrl, versionDir } from '@aso-registry/core/format/paths';
import type { Manifest, PublicationRecord, Representation, World } from '@aso-registry/core/format/types';

export const REGISTRY_URL = 'https://registry.test';

let glb: Promise<Uint8Array> | undefined;

/** A valid one-triangle GLB. */
export function tinyGlb(): Promise<Uint8Array> {
  glb ??= (async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const position = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute('POSITION', position);
    const mesh = doc.createMesh('triangle').addPrimitive(prim);
    const node = doc.createNode('triangle').setMesh(mesh);
    doc.createScene('scene').addChild(node);
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
    return new WebIO().writeBinary(doc);
  })();
  return glb;
}

/** A valid one-triangle glTF whose buffer is a `data:` URI (or `bufferUri` when given). */
export function tinyGltf(bufferUri?: string): Uint8Array {
  const bytes = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  const gltf = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    buffers: [{ byteLength: 36, uri: bufferUri ?? `data:application/octet-stream;base64,${bytes.toString('base64')}` }],
  };
  return new TextEncoder().encode(JSON.stringify(gltf));
}

let png: Promise<Uint8Array> | undefined;

/** A 4x4 PNG. */
export function tinyPng(): Promise<Uint8Array> {
  png ??= sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b));
  return png;
}

/** `sha256-<base64>` of bytes. */
export function sri(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

/** A file to declare: the representation fields besides url, byteLength and hash, and the bytes. */
export interface FileSpec {
  id: string;
  type: string;
  format: string;
  mediaType: string;
  bytes: Uint8Array;
}

export async function glbFile(id = 'mesh'): Promise<FileSpec> {
  return { id, type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary', bytes: await tinyGlb() };
}

export async function pngFile(id = 'reference'): Promise<FileSpec> {
  return { id, type: 'image', format: 'png', mediaType: 'image/png', bytes: await tinyPng() };
}

/** The representation a manifest declares for a file. */
function declare(registryUrl: string, id: string, version: string, f: FileSpec): Representation {
  return {
    id: f.id,
    type: f.type,
    format: f.format,
    mediaType: f.mediaType,
    url: representationUrl(registryUrl, id, version, f.id, f.format),
    byteLength: f.bytes.length,
    hash: sri(f.bytes),
  };
}

/** A temp folder holding `registry/`; `root` is the registry folder, `repo` the folder around it. */
export interface Fixture {
  repo: string;
  root: string;
  /** Absolute path of a file under the registry folder. */
  path: (relative: string) => string;
  /** Writes a version with valid hashes, URLs and publication; returns its manifest. */
  addVersion: (spec: VersionSpec) => Promise<Manifest>;
  write: (relative: string, content: string | Uint8Array) => Promise<void>;
  writeJson: (relative: string, value: unknown) => Promise<void>;
  addWorld: (world: World) => Promise<void>;
  cleanup: () => Promise<void>;
}

export interface VersionSpec {
  id: string;
  version: string;
  files?: FileSpec[];
  preview?: FileSpec;
  createdAt?: string;
  /** Changes to the manifest before it is written. */
  edit?: (m: Manifest) => void;
  /** Changes to the publication record before it is written. */
  editPublication?: (p: PublicationRecord) => void;
}

/** Creates an empty registry (objects/ only) in a fresh temp folder, whose versions are published under `registryUrl`. */
export async function createFixture(registryUrl = REGISTRY_URL): Promise<Fixture> {
  const repo = await mkdtemp(join(tmpdir(), 'aso-registry-test-'));
  const root = join(repo, 'registry');
  await mkdir(join(root, 'objects'), { recursive: true });
  const path = (relative: string): string => join(root, ...relative.split('/'));
  const write = async (relative: string, content: string | Uint8Array): Promise<void> => {
    await mkdir(dirname(path(relative)), { recursive: true });
    await writeFile(path(relative), content);
  };
  const writeJson = (relative: string, value: unknown): Promise<void> => write(relative, `${JSON.stringify(value, null, 2)}\n`);
  return {
    repo,
    root,
    path,
    write,
    writeJson,
    addVersion: async (spec) => {
      const files = spec.files ?? [await glbFile(), await pngFile()];
      const dir = versionDir(spec.id, spec.version);
      const manifest: Manifest = {
        schema: 'aso/object/v0.1',
        id: spec.id,
        version: spec.version,
        name: `Object ${spec.id}`,
        description: 'A test object.',
        tags: ['test'],
        createdAt: spec.createdAt ?? '2025-01-01T00:00:00Z',
        license: 'CC0-1.0',
        provenance: { source: 'test' },
        representations: files.map((f) => declare(registryUrl, spec.id, spec.version, f)),
        ...(spec.preview ? { preview: declare(registryUrl, spec.id, spec.version, spec.preview) } : {}),
      };
      spec.edit?.(manifest);
      const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
      await write(`${dir}/aso.object.json`, manifestText);
      for (const f of [...files, ...(spec.preview ? [spec.preview] : [])]) {
        await write(`${dir}/representations/${f.id}.${f.format}`, f.bytes);
      }
      const publication: PublicationRecord = {
        publicationId: randomUUID(),
        publishedAt: '2025-01-02T00:00:00Z',
        publisher: 'test-publisher',
        recordHash: sri(new TextEncoder().encode(manifestText)),
      };
      spec.editPublication?.(publication);
      await writeJson(`${dir}/publication.json`, publication);
      return manifest;
    },
    addWorld: (world) => writeJson(`worlds/${world.id}.json`, world),
    cleanup: () => rm(repo, { recursive: true, force: true }),
  };
}

/** A maker of fixtures for one test file, each removed after the test that made it. */
export function temporaryFixtures(): () => Promise<Fixture> {
  let made: Fixture[] = [];
  afterEach(async () => {
    await Promise.all(made.map((f) => f.cleanup()));
    made = [];
  });
  return async () => {
    const fx = await createFixture();
    made.push(fx);
    return fx;
  };
}
