import { describe, expect, it } from 'vitest';
import { AssetRejected } from '../../src/publish/publish-error.ts';
import { verifyAsset } from '../../src/publish/verify-asset.ts';
import { tinyGlb, tinyGltf } from '../registry/fixture.ts';

const text = (s: string) => new TextEncoder().encode(s);

async function rejection(bytes: Uint8Array, format: string): Promise<string> {
  const error = await verifyAsset(bytes, format, 'the asset of job j1').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AssetRejected);
  return (error as Error).message;
}

describe('verifyAsset', () => {
  it('passes a valid GLB, glTF and PLY', async () => {
    await expect(verifyAsset(await tinyGlb(), 'glb', 'asset')).resolves.toBeUndefined();
    await expect(verifyAsset(tinyGltf(), 'gltf', 'asset')).resolves.toBeUndefined();
    for (const format of ['ascii', 'binary_little_endian', 'binary_big_endian']) {
      await expect(verifyAsset(text(`ply\r\nformat ${format} 1.0\r\nelement vertex 0\r\nend_header\r\n`), 'ply', 'asset')).resolves.toBeUndefined();
    }
  });

  it('refuses glTF that gltf-validator rejects, listing its findings', async () => {
    expect(await rejection(text('{"asset":{}}'), 'gltf')).toMatch(/^the asset of job j1 is not a valid GLTF asset \(gltf-validator\):\n  \/asset: /);
    expect(await rejection(tinyGltf('mesh.bin'), 'gltf')).toMatch(/mesh\.bin/);
    const glb = await tinyGlb();
    expect(await rejection(glb.subarray(0, glb.length - 8), 'glb')).toMatch(/^the asset of job j1 is not a valid GLB asset/);
  });

  it('refuses a PLY without its header or its format line', async () => {
    expect(await rejection(text('not a ply file'), 'ply')).toBe('the asset of job j1 is not a PLY file: it must start with "ply" and a header that ends with "end_header"');
    expect(await rejection(text('ply\nelement vertex 0\n'), 'ply')).toMatch(/must start with "ply" and a header that ends with "end_header"$/);
    expect(await rejection(text('ply\nformat binary 2.0\nend_header\n'), 'ply')).toBe('the asset of job j1 is not a PLY file: its header has no "format ... 1.0" line');
  });

  it('refuses a format it cannot verify', async () => {
    expect(await rejection(text('o 1'), 'obj')).toBe('the asset of job j1 has the format "obj", which this registry cannot verify; publish glb, gltf or ply assets');
  });
});
