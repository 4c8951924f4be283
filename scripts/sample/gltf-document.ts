/** A `Model` as glTF 2.0 with glTF-Transform: binary `.glb`, or `.gltf` JSON with its buffer and textures embedded as `data:` URIs. */
import { Document, Format, NodeIO, type Texture as GltfTexture } from '@gltf-transform/core';
import { encodeTextureJpeg } from './encode-image.ts';
import type { Model } from './geometry.ts';
import type { Texture } from './textures.ts';

/** What the glTF `asset` says about the file. */
export interface AssetInfo {
  generator: string;
  copyright?: string;
}

/** Builds a one-node, one-mesh document with a primitive per material. */
export async function modelDocument(model: Model, asset: AssetInfo): Promise<Document> {
  const doc = new Document();
  const root = doc.getRoot();
  root.getAsset().generator = asset.generator;
  if (asset.copyright) root.getAsset().copyright = asset.copyright;
  const buffer = doc.createBuffer();
  const textures = new Map<Texture, GltfTexture>();
  const mesh = doc.createMesh(model.name);
  for (const part of model.parts) {
    const m = part.material;
    const material = doc
      .createMaterial(m.name)
      .setBaseColorFactor(m.baseColor)
      .setMetallicFactor(m.metallic)
      .setRoughnessFactor(m.roughness);
    if (m.emissive) material.setEmissiveFactor(m.emissive);
    if (m.blend) material.setAlphaMode('BLEND');
    if (m.doubleSided) material.setDoubleSided(true);
    const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array | Uint32Array) =>
      doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const vertexCount = part.positions.length / 3;
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', new Float32Array(part.positions)))
      .setAttribute('NORMAL', accessor('VEC3', new Float32Array(part.normals)))
      .setIndices(accessor('SCALAR', vertexCount > 65535 ? new Uint32Array(part.indices) : new Uint16Array(part.indices)))
      .setMaterial(material);
    if (m.texture) {
      let texture = textures.get(m.texture);
      if (!texture) {
        const image = await encodeTextureJpeg(m.texture);
        texture = doc.createTexture(m.texture.name).setImage(image).setMimeType('image/jpeg').setURI(`${m.texture.name}.jpg`);
        textures.set(m.texture, texture);
      }
      material.setBaseColorTexture(texture);
      primitive.setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(part.uvs)));
    }
    mesh.addPrimitive(primitive);
  }
  const node = doc.createNode(model.name).setMesh(mesh);
  root.setDefaultScene(doc.createScene(model.name).addChild(node));
  return doc;
}

/** The document as a binary glTF (`.glb`). */
export async function toGlb(doc: Document): Promise<Uint8Array> {
  return new NodeIO().writeBinary(doc);
}

/** The document as a self-contained `.gltf`: JSON whose buffer and images are `data:` URIs. */
export async function toEmbeddedGltf(doc: Document, basename: string): Promise<Uint8Array> {
  const { json, resources } = await new NodeIO().writeJSON(doc, { format: Format.GLTF, basename });
  const inline = (uri: string | undefined, mimeType: string): string => {
    const bytes = uri === undefined ? undefined : resources[uri];
    if (!bytes) throw new Error(`glTF resource "${String(uri)}" was not written`);
    return `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`;
  };
  for (const buffer of json.buffers ?? []) buffer.uri = inline(buffer.uri, 'application/octet-stream');
  for (const image of json.images ?? []) {
    if (image.uri === undefined) continue;
    image.uri = inline(image.uri, image.mimeType ?? 'image/jpeg');
  }
  return new TextEncoder().encode(`${JSON.stringify(json)}\n`);
}
