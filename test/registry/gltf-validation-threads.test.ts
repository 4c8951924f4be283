/** gltf-validator on threads of its own: the same answers as on the calling thread, for bytes and for files on disk. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GltfCheck } from '@aso-registry/core/format/gltf-rules';
import { hashSmallFileWhole, sha256File } from '../../src/io/hash-file.ts';
import { gltfValidationOptions, startGltfValidation, type GltfValidation } from '../../src/registry/gltf-validation-threads.ts';
import { validateHashedGltf } from '../../src/registry/validate-gltf.ts';
import { featureAssets, unknownExtensionAsset } from '../support/gltf-features.ts';
import { tinyGltf } from './fixture.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'viewer');

describe('startGltfValidation', () => {
  let dir: string;
  /** Real exports (Draco, meshopt, KTX2, WebP, ...), a file with an unknown extension and files the validator refuses. */
  const files: Array<{ path: string; format: string }> = [];
  const open: GltfValidation[] = [];
  const start = (...args: Parameters<typeof startGltfValidation>): GltfValidation => {
    const validation = startGltfValidation(...args);
    open.push(validation);
    return validation;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-gltf-threads-'));
    for (const asset of await featureAssets()) {
      const path = join(dir, `${asset.name}.glb`);
      await writeFile(path, asset.bytes);
      files.push({ path, format: 'glb' });
    }
    await writeFile(join(dir, 'unknown.glb'), await unknownExtensionAsset('EXT_made_up_for_tests'));
    files.push({ path: join(dir, 'unknown.glb'), format: 'glb' });
    for (const name of ['invalid-accessor.gltf', 'external-buffer.gltf']) files.push({ path: join(fixtures, name), format: 'gltf' });
    await writeFile(join(dir, 'remote.gltf'), tinyGltf('https://cdn.test/mesh.bin'));
    files.push({ path: join(dir, 'remote.gltf'), format: 'gltf' });
    await writeFile(join(dir, 'not-gltf.glb'), 'not a glTF file at all');
    files.push({ path: join(dir, 'not-gltf.glb'), format: 'glb' });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((v) => v.close()));
    await rm(dir, { recursive: true, force: true });
  });

  /** What the calling thread finds in each file. */
  const here = (): Promise<GltfCheck[]> => Promise.all(files.map(async (f) => validateHashedGltf(f.path, f.format, await hashSmallFileWhole(f.path))));

  it('finds on a thread what it finds on the calling thread, for the bytes the hash kept', async () => {
    const validation = start({ threads: 1, after: 0 });
    const digests = await Promise.all(files.map((f) => hashSmallFileWhole(f.path)));
    const lengths = digests.map((d) => d.bytes!.byteLength);
    const onThread = await Promise.all(files.map((f, i) => validation.validate(f.path, f.format, digests[i]!)));
    expect(onThread).toEqual(await here());
    expect(validation.onThreads()).toEqual({ files: files.length, threads: 1 });
    // The hash's bytes stay with the caller: copies went to the thread.
    expect(digests.map((d) => d.bytes!.byteLength)).toEqual(lengths);
    // Findings name what is wrong, as on the calling thread.
    const findings = onThread.flatMap((c) => c.findings.map((f) => f.message));
    expect(findings).toContain('references the external file "https://cdn.test/mesh.bin"; only data: URIs or GLB-embedded buffers are allowed');
    expect(findings.some((m) => m.startsWith('gltf-validator ACCESSOR_TOO_LONG'))).toBe(true);
  });

  it('reads the file on the thread when the hash kept no bytes (a large file)', async () => {
    const validation = start({ threads: 2, after: 0 });
    const onThread = await Promise.all(files.map(async (f) => validation.validate(f.path, f.format, await sha256File(f.path))));
    expect(onThread).toEqual(await here());
    expect(validation.onThreads()).toEqual({ files: files.length, threads: 2 });
  });

  it('validates the first files on the calling thread, and none on a thread with no threads or once closed', async () => {
    const validation = start({ threads: 1, after: 3 });
    const check = async (n: number): Promise<GltfCheck> => validation.validate(files[n]!.path, files[n]!.format, await hashSmallFileWhole(files[n]!.path));
    const answers = [await check(0), await check(1), await check(2)];
    expect(validation.onThreads().files).toBe(0);
    answers.push(await check(3));
    expect(validation.onThreads().files).toBe(1);
    await validation.close();
    answers.push(await check(4));
    expect(validation.onThreads().files).toBe(1);
    expect(answers).toEqual((await here()).slice(0, 5));

    const none = start({ threads: 0, after: 0 });
    expect(await check(0)).toEqual(await none.validate(files[0]!.path, files[0]!.format, await hashSmallFileWhole(files[0]!.path)));
    expect(none.onThreads()).toEqual({ files: 0, threads: 0 });
  });

  it('reads its threads from ASO_VALIDATION_THREADS, and names a wrong value', () => {
    expect(gltfValidationOptions({})).toEqual({});
    expect(gltfValidationOptions({ ASO_VALIDATION_THREADS: '3' })).toEqual({ threads: 3, after: 0 });
    expect(gltfValidationOptions({ ASO_VALIDATION_THREADS: '0' })).toEqual({ threads: 0, after: 0 });
    expect(() => gltfValidationOptions({ ASO_VALIDATION_THREADS: 'two' })).toThrow(
      `ASO_VALIDATION_THREADS must be a whole number of threads, 0 to do the work on the calling thread (not "two")`,
    );
  });
});
