/** Writes one mesh with one material as a binary glTF (GLB) with glTF-Transform. */
import { Document, WebIO } from '@gltf-transform/core';
import type { MeshData } from './mesh-builder.ts';

/** The surface of the mesh: a base colour factor and, optionally, an embedded texture. */
export interface GlbMaterial {
  name: string;
  baseColor?: [number, number, number, number];
  texture?: { bytes: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };
  /** `MASK` cuts away texels whose alpha is under one half. */
  alphaMode?: 'OPAQUE' | 'MASK';
  roughness?: number;
  doubleSided?: boolean;
}

/** The GLB bytes of a scene holding `mesh` under a node called `name`. */
export async function writeGlb(name: string, mesh: MeshData, material: GlbMaterial): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mat = doc
    .createMaterial(material.name)
    .setBaseColorFactor(material.baseColor ?? [1, 1, 1, 1])
    .setMetallicFactor(0)
    .setRoughnessFactor(material.roughness ?? 0.85)
    .setDoubleSided(material.doubleSided ?? false)
    .setAlphaMode(material.alphaMode ?? 'OPAQUE');
  if (material.texture) {
    if (!mesh.uvs) throw new Error('a textured mesh needs texture coordinates');
    const texture = doc.createTexture(`${material.name}-texture`).setImage(material.texture.bytes).setMimeType(material.texture.mimeType);
    mat.setBaseColorTexture(texture);
  }
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor('position').setType('VEC3').setArray(mesh.positions).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor('normal').setType('VEC3').setArray(mesh.normals).setBuffer(buffer))
    .setMaterial(mat);
  if (mesh.uvs) prim.setAttribute('TEXCOORD_0', doc.createAccessor('uv').setType('VEC2').setArray(mesh.uvs).setBuffer(buffer));
  const vertexCount = mesh.positions.length / 3;
  const indices = vertexCount <= 65_535 ? Uint16Array.from(mesh.indices) : mesh.indices;
  prim.setIndices(doc.createAccessor('indices').setType('SCALAR').setArray(indices).setBuffer(buffer));
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(prim));
  doc.getRoot().setDefaultScene(doc.createScene(name).addChild(node));
  return new WebIO().writeBinary(doc);
}
