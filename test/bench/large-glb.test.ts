import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridSide, largeGlb, writeLargeVersion } from '../../src/bench/large-glb.ts';
import { checkRegistry } from '../../src/registry/load-registry.ts';
import { validateGltfBytes } from '../../src/registry/validate-gltf.ts';

describe('largeGlb', () => {
  it('is a valid GLB of about the size asked for, with the triangles of its grid', async () => {
    const glb = await largeGlb(2e6);
    expect(Math.abs(glb.byteLength - 2e6) / 2e6).toBeLessThan(0.05);
    const checked = await validateGltfBytes(glb, { format: 'glb' });
    expect(checked.findings).toEqual([]);
    const n = gridSide(2e6);
    expect(checked.inventory).toMatchObject({ vertices: n * n, triangles: 2 * (n - 1) * (n - 1), drawCalls: 1 });
  });

  it('makes a registry the check accepts', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'aso-large-'));
    try {
      await writeLargeVersion(join(parent, 'registry'), await largeGlb(1e5), 'https://registry.example.org');
      const result = await checkRegistry(join(parent, 'registry'), { registryUrl: 'https://registry.example.org' });
      expect(result.problems).toEqual([]);
      expect(result.summary).toMatchObject({ objects: 1, versions: 1, files: 1 });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
