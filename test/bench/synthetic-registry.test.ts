import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../scripts/check.ts';
import { assetsFor, makeAssets, writeSyntheticRegistry, type SyntheticAssets } from '../../src/bench/synthetic-registry.ts';
import { validateGltfBytes } from '../../src/registry/validate-gltf.ts';

describe('synthetic versions', () => {
  let template: SyntheticAssets;
  beforeAll(async () => {
    template = await makeAssets();
  });

  it('have bytes of their own, as in a real registry', () => {
    const a = assetsFor(template, 7);
    const b = assetsFor(template, 8);
    expect(Buffer.compare(a.glb, b.glb)).not.toBe(0);
    expect(Buffer.compare(a.jpeg, b.jpeg)).not.toBe(0);
    expect(a.glb.length).toBe(template.glb.length);
    expect(Buffer.compare(assetsFor(template, 7).glb, a.glb)).toBe(0);
  });

  it('are a valid GLB and a JPEG that sharp decodes', async () => {
    const { glb, jpeg } = assetsFor(template, 123_456);
    const { findings } = await validateGltfBytes(glb);
    expect(findings).toEqual([]);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 96, height: 72 });
  });
});

describe('a synthetic registry', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-synthetic-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes npm run check', async () => {
    const root = join(dir, 'registry');
    await writeSyntheticRegistry(root, 12, { registryUrl: 'https://registry.example.org' });
    const result = await runCheck([], { ASO_REGISTRY_DIR: root, ASO_CACHE_DIR: join(dir, 'cache'), REGISTRY_URL: 'https://registry.example.org' }, dir);
    expect(result.code, result.stderr).toBe(0);
  });
});
