import { WebIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { validateBytes } from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { MeshBuilder, type MeshData } from '../../../src/jobs/models/mesh-builder.ts';
import { writeGlb } from '../../../src/jobs/models/write-glb.ts';

/** A quad of `n` x `n` cells facing +Z, with texture coordinates. */
function grid(n: number, withUvs = true): MeshData {
  const mesh = new MeshBuilder(withUvs);
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) mesh.vertex([i / n, j / n, 0], [0, 0, 1], [i / n, 1 - j / n]);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      mesh.quadFacing(a, a + 1, a + n + 2, a + n + 1, [0, 0, 1]);
    }
  }
  return mesh.build();
}

async function errorsOf(bytes: Uint8Array): Promise<unknown[]> {
  const report = await validateBytes(bytes, { maxIssues: 20 });
  return report.issues.messages.filter((m: { severity: number }) => m.severity === 0);
}

describe('writeGlb', () => {
  it('writes a valid GLB of one node, mesh and material with the given surface', async () => {
    const bytes = await writeGlb('panel', grid(2, false), { name: 'paint', baseColor: [1, 0, 0, 1], roughness: 0.3, doubleSided: true });
    expect(await errorsOf(bytes)).toEqual([]);
    const doc = await new WebIO().readBinary(bytes);
    const root = doc.getRoot();
    expect(root.listNodes().map((n) => n.getName())).toEqual(['panel']);
    expect(root.getDefaultScene()?.listChildren().map((n) => n.getName())).toEqual(['panel']);
    const material = root.listMaterials()[0]!;
    expect([material.getName(), material.getBaseColorFactor(), material.getRoughnessFactor(), material.getMetallicFactor(), material.getDoubleSided(), material.getAlphaMode()]).toEqual([
      'paint', [1, 0, 0, 1], 0.3, 0, true, 'OPAQUE',
    ]);
    const prim = root.listMeshes()[0]!.listPrimitives()[0]!;
    expect(prim.getAttribute('TEXCOORD_0')).toBeNull();
    expect(prim.getAttribute('POSITION')!.getCount()).toBe(9);
    expect(prim.getIndices()!.getCount()).toBe(2 * 2 * 6);
  });

  it('embeds a texture with its media type and keeps the texture coordinates', async () => {
    const png = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff000080' } }).png().toBuffer());
    const bytes = await writeGlb('card', grid(1), { name: 'print', texture: { bytes: png, mimeType: 'image/png' }, alphaMode: 'MASK' });
    expect(await errorsOf(bytes)).toEqual([]);
    const doc = await new WebIO().readBinary(bytes);
    const material = doc.getRoot().listMaterials()[0]!;
    const texture = material.getBaseColorTexture()!;
    expect(texture.getMimeType()).toBe('image/png');
    expect(texture.getImage()).toEqual(png);
    expect(material.getAlphaMode()).toBe('MASK');
    expect(material.getBaseColorFactor()).toEqual([1, 1, 1, 1]);
    expect(doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('TEXCOORD_0')!.getCount()).toBe(4);
  });

  it('uses 16-bit indices up to 65,535 vertices and 32-bit beyond', async () => {
    const indexType = async (mesh: MeshData) => (await new WebIO().readBinary(await writeGlb('m', mesh, { name: 'm' }))).getRoot().listMeshes()[0]!.listPrimitives()[0]!.getIndices()!.getArray()!.constructor;
    expect(await indexType(grid(2, false))).toBe(Uint16Array);
    const big = grid(256, false);
    expect(big.positions.length / 3).toBeGreaterThan(65_535);
    expect(await indexType(big)).toBe(Uint32Array);
  });

  it('refuses a texture on a mesh without texture coordinates', async () => {
    await expect(writeGlb('m', grid(1, false), { name: 'm', texture: { bytes: new Uint8Array(4), mimeType: 'image/jpeg' } })).rejects.toThrow('a textured mesh needs texture coordinates');
  });
});
