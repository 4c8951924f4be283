import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { formatNotes, gltfInventory, gltfJson, gltfJsonCounts, gltfNotes, noteCodes, type GltfNotes } from '@aso-registry/core/format/gltf-inventory';

const note = (code: string, severity: number) => ({ code, message: `${code} message`, severity });

describe('gltf inventory', () => {
  it('takes the counts and extensions from the validator info and the texture and skin counts from the JSON', () => {
    const info = { totalTriangleCount: 1376, totalVertexCount: 1196, drawCallCount: 4, materialCount: 3, animationCount: 2, extensionsUsed: ['A', 'B'], extensionsRequired: ['A'] };
    expect(gltfInventory(info, { textures: 5, skins: 1 })).toEqual({
      triangles: 1376,
      vertices: 1196,
      drawCalls: 4,
      materials: 3,
      textures: 5,
      animations: 2,
      skins: 1,
      extensionsUsed: ['A', 'B'],
      extensionsRequired: ['A'],
    });
    expect(gltfInventory(undefined, { textures: 0, skins: 0 })).toMatchObject({ triangles: 0, extensionsUsed: [], extensionsRequired: [] });
  });

  it('counts textures and skins of a glTF JSON object', () => {
    expect(gltfJsonCounts({ textures: [{}, {}], skins: [{}] })).toEqual({ textures: 2, skins: 1 });
    expect(gltfJsonCounts(undefined)).toEqual({ textures: 0, skins: 0 });
  });

  it('reads the JSON of a GLB and of a .gltf, and nothing from other bytes', async () => {
    const doc = new Document();
    doc.createTexture('t').setImage(new Uint8Array([1, 2, 3])).setMimeType('image/png');
    doc.createMaterial('m').setBaseColorTexture(doc.getRoot().listTextures()[0]!);
    doc.createBuffer();
    const glb = await new NodeIO().writeBinary(doc);
    expect(gltfJsonCounts(gltfJson(glb))).toEqual({ textures: 1, skins: 0 });
    expect(gltfJson(new TextEncoder().encode('{"asset":{"version":"2.0"}}'))).toEqual({ asset: { version: '2.0' } });
    expect(gltfJson(new Uint8Array([1, 2, 3]))).toBeUndefined();
    const truncated = glb.slice(0, 24);
    expect(gltfJson(truncated)).toBeUndefined();
  });

  it('keeps warnings, infos and hints with the exact counts, and lists the first codes of each', () => {
    const notes: GltfNotes = gltfNotes({
      numErrors: 1,
      numWarnings: 5,
      numInfos: 1,
      numHints: 0,
      truncated: true,
      messages: [note('ERR', 0), note('W1', 1), note('W2', 1), note('W1', 1), note('W3', 1), note('W4', 1), note('I1', 2)],
    } as never);
    expect(notes.messages.map((m) => m.code)).toEqual(['W1', 'W2', 'W1', 'W3', 'W4', 'I1']);
    expect(noteCodes(notes, 1)).toEqual(['W1', 'W2', 'W3', 'W4']);
    expect(formatNotes(notes)).toBe('5 warnings (W1, W2, W3, ...), 1 info (I1)');
    expect(formatNotes({ ...notes, warnings: 0, infos: 0 })).toBeNull();
    expect(notes.truncated).toBe(true);
  });
});
