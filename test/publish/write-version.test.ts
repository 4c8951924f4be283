import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyLedger } from '@aso-registry/core/log/ledger';
import { PublishError } from '../../src/publish/publish-error.ts';
import { buildManifest, buildPublication, manifestBytes, type VersionDraft } from '../../src/publish/version-draft.ts';
import { checkStaged, exists, stageVersion, targetDir, writeVersion } from '../../src/publish/write-version.ts';
import { checkRegistry } from '../../src/registry/load-registry.ts';
import { createFixture, REGISTRY_URL, tinyGlb, tinyPng, type Fixture } from '../registry/fixture.ts';

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.cleanup();
});
async function registry(): Promise<Fixture> {
  const fx = await createFixture();
  fixtures.push(fx);
  return fx;
}

async function draft(id: string, version: string, glb?: Uint8Array): Promise<VersionDraft> {
  return {
    id,
    version,
    name: 'Oak chair',
    description: 'A chair.',
    tags: ['wood'],
    createdAt: '2026-01-01T00:00:00Z',
    provenance: { source: 'test' },
    representations: [
      { rep: { id: 'primary', type: 'mesh', format: 'glb', mediaType: 'model/gltf-binary' }, role: 'asset', bytes: glb ?? (await tinyGlb()), width: null, height: null },
      { rep: { id: 'reference', type: 'image', format: 'png', mediaType: 'image/png' }, role: 'reference-image', bytes: await tinyPng(), width: 4, height: 4 },
    ],
  };
}

/** Stages a version of `id` in the registry of `fx`, as a publish does. */
async function stage(fx: Fixture, id: string, version: string, glb?: Uint8Array) {
  const d = await draft(id, version, glb);
  const manifest = buildManifest(d, REGISTRY_URL);
  const bytes = manifestBytes(manifest);
  return stageVersion(fx.root, d, manifest, bytes, await buildPublication(bytes, 'test'));
}

describe('stageVersion and checkStaged', () => {
  it('stages the files beside the registry, and checks them as npm run check will', async () => {
    const fx = await registry();
    const staged = await stage(fx, 'chair', '1.0.0');
    expect((await readdir(join(staged.dir, 'representations'))).sort()).toEqual(['primary.glb', 'reference.png']);
    expect(staged.dir.startsWith(fx.repo)).toBe(true);
    expect(staged.dir.startsWith(fx.root)).toBe(false);
    expect(await checkStaged(staged, fx.root, REGISTRY_URL, fx.repo)).toEqual([]);
    await staged.discard();
    expect(await exists(staged.dir)).toBe(false);
  });

  it('names the problems of a staged version by the paths it will have in the registry', async () => {
    const fx = await registry();
    const staged = await stage(fx, 'chair', '1.0.0', new TextEncoder().encode('not a glb at all'));
    const problems = await checkStaged(staged, fx.root, REGISTRY_URL, fx.repo);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^registry\/objects\/chair\/versions\/1\.0\.0\/representations\/primary\.glb: /);
    await staged.discard();
  });
});

describe('writeVersion', () => {
  it("moves the first version into an empty registry and starts the ledger with it", async () => {
    const fx = await registry();
    const staged = await stage(fx, 'chair', '1.0.0');
    const written = await writeVersion(fx.root, staged);
    expect(written).toMatchObject({ dir: targetDir(fx.root, 'chair', '1.0.0'), ledger: true, paths: [targetDir(fx.root, 'chair', '1.0.0'), join(fx.root, 'ledger.jsonl')] });
    expect(await exists(staged.dir)).toBe(false);
    expect((await readdir(fx.repo)).filter((n) => n.startsWith('.aso-staging'))).toEqual([]);
    const { entries } = await verifyLedger(await readFile(join(fx.root, 'ledger.jsonl'), 'utf8'));
    expect(entries.map((e) => [e.id, e.version, e.recordHash])).toEqual([['chair', '1.0.0', staged.publication.recordHash]]);
    const checked = await checkRegistry(fx.root, { registryUrl: REGISTRY_URL, repoRoot: fx.repo });
    expect(checked.problems).toEqual([]);
  });

  it('appends to an existing ledger, and undo puts the registry back as it was', async () => {
    const fx = await registry();
    await writeVersion(fx.root, await stage(fx, 'chair', '1.0.0'));
    const ledgerBefore = await readFile(join(fx.root, 'ledger.jsonl'), 'utf8');
    const written = await writeVersion(fx.root, await stage(fx, 'lamp', '1.0.0'));
    expect((await verifyLedger(await readFile(join(fx.root, 'ledger.jsonl'), 'utf8'))).entries).toHaveLength(2);
    await written.undo();
    expect(await readFile(join(fx.root, 'ledger.jsonl'), 'utf8')).toBe(ledgerBefore);
    expect(await readdir(join(fx.root, 'objects'))).toEqual(['chair']);
  });

  it('does not start a ledger in a registry that has versions but none', async () => {
    const fx = await registry();
    await fx.addVersion({ id: 'table', version: '1.0.0' });
    const written = await writeVersion(fx.root, await stage(fx, 'chair', '1.0.0'));
    expect(written.ledger).toBe(false);
    expect(written.paths).toEqual([targetDir(fx.root, 'chair', '1.0.0')]);
    await expect(stat(join(fx.root, 'ledger.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a version that exists, touching nothing', async () => {
    const fx = await registry();
    await writeVersion(fx.root, await stage(fx, 'chair', '1.0.0'));
    const again = await stage(fx, 'chair', '1.0.0');
    const error = await writeVersion(fx.root, again).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as Error).message).toBe(`chair@1.0.0 exists already (${targetDir(fx.root, 'chair', '1.0.0')}); published versions are never overwritten; choose another --version`);
    expect(await exists(again.dir)).toBe(true);
    await again.discard();
  });

  it('takes the version out again when the ledger cannot take its line', async () => {
    const fx = await registry();
    await writeVersion(fx.root, await stage(fx, 'chair', '1.0.0'));
    await fx.write('ledger.jsonl', 'broken\n');
    const error = await writeVersion(fx.root, await stage(fx, 'lamp', '1.0.0')).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^cannot record lamp@1\.0\.0 in the ledger: /);
    expect(await readdir(join(fx.root, 'objects'))).toEqual(['chair']);
    expect(await readFile(join(fx.root, 'ledger.jsonl'), 'utf8')).toBe('broken\n');
  });
});
