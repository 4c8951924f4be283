import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { gltfDimensions } from '@aso-registry/core/format/gltf-bounds';
import { gltfJson } from '@aso-registry/core/format/gltf-inventory';

/** A document with one mesh whose positions span `min` to `max`, under the nodes `place` makes. */
async function asset(min: number[], max: number[], place: (doc: Document, mesh: ReturnType<Document['createMesh']>) => void): Promise<unknown> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(new Float32Array([...min, ...max, min[0]!, max[1]!, min[2]!]));
  const mesh = doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', position));
  place(doc, mesh);
  return gltfJson(await new NodeIO().writeBinary(doc));
}

describe('gltfDimensions', () => {
  it('is the size of the POSITION bounds of a mesh at the origin', async () => {
    const json = await asset([-0.25, 0, -0.2], [0.25, 0.9, 0.2], (doc, mesh) => doc.createScene().addChild(doc.createNode().setMesh(mesh)));
    expect(gltfDimensions(json)).toEqual([0.5, 0.9, 0.4]);
  });

  it('applies translation, rotation and scale down the node tree', async () => {
    const json = await asset([0, 0, 0], [1, 2, 3], (doc, mesh) => {
      // A quarter turn about y swaps x and z; the parent doubles everything and moves it, which changes no size.
      const child = doc.createNode().setMesh(mesh).setRotation([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
      doc.createScene().addChild(doc.createNode().setScale([2, 2, 2]).setTranslation([10, 0, 0]).addChild(child));
    });
    expect(gltfDimensions(json)).toEqual([6, 4, 2]);
  });

  it('spans every instance of a mesh', async () => {
    const json = await asset([0, 0, 0], [1, 1, 1], (doc, mesh) => {
      const scene = doc.createScene();
      scene.addChild(doc.createNode().setMesh(mesh));
      scene.addChild(doc.createNode().setMesh(mesh).setTranslation([4, 0, 0]));
    });
    expect(gltfDimensions(json)).toEqual([5, 1, 1]);
  });

  it('reads a node matrix, and normalized integer positions as the runtime does', () => {
    const json = {
      scenes: [{ nodes: [0] }],
      nodes: [{ mesh: 0, matrix: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 5, 5, 5, 1] }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      accessors: [{ componentType: 5123, normalized: true, type: 'VEC3', count: 2, min: [0, 0, 0], max: [65535, 32767.5, 0] }],
    };
    expect(gltfDimensions(json)).toEqual([2, 1.5, 0]);
  });

  it('measures only the default scene', () => {
    const json = {
      scene: 1,
      scenes: [{ nodes: [0] }, { nodes: [1] }],
      nodes: [{ mesh: 0, scale: [10, 10, 10] }, { mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      accessors: [{ min: [0, 0, 0], max: [1, 1, 1] }],
    };
    expect(gltfDimensions(json)).toEqual([1, 1, 1]);
  });

  it('uses the root nodes when there is no scene', () => {
    const json = { nodes: [{ children: [1] }, { mesh: 0, translation: [0, 1, 0] }], meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], accessors: [{ min: [0, 0, 0], max: [1, 2, 3] }] };
    expect(gltfDimensions(json)).toEqual([1, 2, 3]);
  });

  it('is null when nothing gives bounds, and for what is not glTF', () => {
    expect(gltfDimensions({ scenes: [{ nodes: [0] }], nodes: [{}] })).toBeNull();
    expect(gltfDimensions({ nodes: [{ mesh: 0 }], meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], accessors: [{ min: [0, 0], max: [1, 1] }] })).toBeNull();
    expect(gltfDimensions({ nodes: [{ mesh: 0 }], meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], accessors: [{ min: [0, 0, 'x'], max: [1, 1, 1] }] })).toBeNull();
    expect(gltfDimensions(undefined)).toBeNull();
    expect(gltfDimensions([1, 2])).toBeNull();
  });

  it('stops on a node tree that loops or shares nodes without end', () => {
    const loop = { scenes: [{ nodes: [0] }], nodes: [{ children: [0], mesh: 0 }], meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], accessors: [{ min: [0, 0, 0], max: [1, 1, 1] }] };
    expect(gltfDimensions(loop)).toBeNull();
    const shared = { scenes: [{ nodes: [0] }], nodes: Array.from({ length: 40 }, (_, i) => ({ children: i < 39 ? [i + 1, i + 1] : [] })) };
    expect(gltfDimensions(shared)).toBeNull();
  });
});
