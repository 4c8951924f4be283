/** Synthetic registries for the benchmark: N valid versions, each with a small GLB and a JPEG, plus a valid ledger. */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendToLedger, ledgerFrom, LEDGER_FILE, type LedgerPublication } from '@aso-registry/core/log/ledger';
import { representationUrl, versionDir } from '@aso-registry/core/format/paths';
import { sriFromDigest } from '@aso-registry/core/format/sri';
import type { Manifest, PublicationRecord, Representation } from '@aso-registry/core/format/types';
import pLimit from 'p-limit';

/** How many versions each synthetic object holds (the last object may hold fewer). */
const VERSIONS_PER_OBJECT = 5;

const TAGS = ['chair', 'table', 'lamp', 'vase', 'rock', 'tree', 'tool', 'toy', 'crate', 'bottle'];

/** The template bytes of a synthetic version; `assetsFor` makes each version's own bytes from them. */
export interface SyntheticAssets {
  glb: Uint8Array;
  jpeg: Uint8Array;
}

/** The node name in the template GLB whose digits `assetsFor` replaces (same length, so no GLB length changes). */
const NODE_NAME = 'tetrahedron-000000000';

/**
 * A tetrahedron as GLB, written with glTF-Transform, and a small JPEG made with sharp. Every version gets bytes of its
 * own from these (see `assetsFor`), as in a real registry, so a cold build hashes, validates and thumbnails each one.
 */
export async function makeAssets(): Promise<SyntheticAssets> {
  const { Document, NodeIO } = await import('@gltf-transform/core');
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
  const indices = doc
    .createAccessor()
    .setType('SCALAR')
    .setBuffer(buffer)
    .setArray(new Uint16Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]));
  const material = doc.createMaterial('stone').setBaseColorFactor([0.6, 0.6, 0.6, 1]);
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices).setMaterial(material);
  const node = doc.createNode(NODE_NAME).setMesh(doc.createMesh('tetrahedron').addPrimitive(prim));
  doc.createScene('scene').addChild(node);
  const glb = await new NodeIO().writeBinary(doc);
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 96, height: 72, channels: 3, background: { r: 150, g: 120, b: 90 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { glb, jpeg: new Uint8Array(jpeg) };
}

/** The bytes of version `n`: the GLB's node named after `n`, and a JPEG comment (COM segment) naming `n`. */
export function assetsFor(template: SyntheticAssets, n: number): SyntheticAssets {
  const glb = Buffer.from(template.glb);
  const at = glb.indexOf(NODE_NAME);
  if (at < 0 || glb.indexOf(NODE_NAME, at + 1) >= 0) throw new Error(`the template GLB must name its node ${NODE_NAME} exactly once`);
  glb.write(`tetrahedron-${String(n).padStart(9, '0')}`, at, 'latin1');
  const text = Buffer.from(`aso bench version ${n}`, 'latin1');
  const com = Buffer.alloc(4 + text.length);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(2 + text.length, 2);
  text.copy(com, 4);
  // Right after the start-of-image marker (FF D8), where a comment segment is always allowed.
  const jpeg = Buffer.concat([template.jpeg.subarray(0, 2), com, template.jpeg.subarray(2)]);
  return { glb: new Uint8Array(glb), jpeg: new Uint8Array(jpeg) };
}

/** The SRI of bytes with Node's crypto. */
function sri(bytes: Uint8Array): string {
  return sriFromDigest(new Uint8Array(createHash('sha256').update(bytes).digest()));
}

/** The object id and version of the `n`-th synthetic version (0-based). */
export function syntheticVersion(n: number): { id: string; version: string } {
  return { id: `bench-object-${String(Math.floor(n / VERSIONS_PER_OBJECT) + 1).padStart(5, '0')}`, version: `1.0.${n % VERSIONS_PER_OBJECT}` };
}

interface Digests {
  glb: { byteLength: number; hash: string };
  jpeg: { byteLength: number; hash: string };
}

function rep(registryUrl: string, id: string, version: string, repId: string, format: string, mediaType: string, type: string, d: { byteLength: number; hash: string }): Representation {
  return { id: repId, type, format, mediaType, url: representationUrl(registryUrl, id, version, repId, format), byteLength: d.byteLength, hash: d.hash };
}

/** Writes version `n` (manifest, publication record, two files) and returns its ledger publication. */
async function writeSyntheticVersion(root: string, n: number, template: SyntheticAssets, registryUrl: string): Promise<LedgerPublication> {
  const { id, version } = syntheticVersion(n);
  const assets = assetsFor(template, n);
  const digests = digestsOf(assets);
  const dir = join(root, versionDir(id, version));
  await mkdir(join(dir, 'representations'), { recursive: true });
  const created = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
  const manifest: Manifest = {
    schema: 'aso/object/v0.1',
    id,
    version,
    name: `Bench object ${id.slice(-5)} v${version}`,
    description: `Synthetic object ${n + 1} of the benchmark: a tetrahedron and a reference photo.`,
    tags: [TAGS[n % TAGS.length]!, TAGS[(n * 7 + 3) % TAGS.length]!].filter((t, i, all) => all.indexOf(t) === i),
    createdAt: created,
    license: 'CC0-1.0',
    provenance: { source: 'synthetic benchmark registry' },
    representations: [
      rep(registryUrl, id, version, 'mesh', 'glb', 'model/gltf-binary', 'mesh', digests.glb),
      rep(registryUrl, id, version, 'reference', 'jpg', 'image/jpeg', 'image', digests.jpeg),
    ],
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const publication: PublicationRecord = { publicationId: randomUUID(), publishedAt: created, publisher: 'aso bench', recordHash: sri(manifestBytes) };
  await Promise.all([
    writeFile(join(dir, 'representations', 'mesh.glb'), assets.glb),
    writeFile(join(dir, 'representations', 'reference.jpg'), assets.jpeg),
    writeFile(join(dir, 'aso.object.json'), manifestBytes),
    writeFile(join(dir, 'publication.json'), `${JSON.stringify(publication, null, 2)}\n`),
  ]);
  return { publicationId: publication.publicationId, id, version, recordHash: publication.recordHash, publishedAt: publication.publishedAt };
}

function digestsOf(assets: SyntheticAssets): Digests {
  return { glb: { byteLength: assets.glb.length, hash: sri(assets.glb) }, jpeg: { byteLength: assets.jpeg.length, hash: sri(assets.jpeg) } };
}

/** Writes a registry of `count` versions into `root` (the `registry/` folder), with its ledger. */
export async function writeSyntheticRegistry(root: string, count: number, opts: { registryUrl: string; assets?: SyntheticAssets }): Promise<void> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`a synthetic registry needs at least 1 version, not ${count}`);
  const assets = opts.assets ?? (await makeAssets());
  await mkdir(join(root, 'objects'), { recursive: true });
  const publications: LedgerPublication[] = new Array(count);
  const limit = pLimit(32);
  await Promise.all(
    Array.from({ length: count }, (_, n) => limit(async () => void (publications[n] = await writeSyntheticVersion(root, n, assets, opts.registryUrl)))),
  );
  await writeFile(join(root, LEDGER_FILE), await ledgerFrom(publications));
}

/** Adds version `n` (the next one) to a synthetic registry and appends it to the ledger. */
export async function addSyntheticVersion(root: string, n: number, opts: { registryUrl: string; assets?: SyntheticAssets }): Promise<{ id: string; version: string }> {
  const assets = opts.assets ?? (await makeAssets());
  const publication = await writeSyntheticVersion(root, n, assets, opts.registryUrl);
  const ledger = join(root, LEDGER_FILE);
  await writeFile(ledger, await appendToLedger(await readFile(ledger, 'utf8'), publication));
  return { id: publication.id, version: publication.version };
}
