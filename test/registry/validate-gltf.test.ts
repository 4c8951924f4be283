import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGltf, validateGltfBytes, validateGltfFile } from '../../src/registry/validate-gltf.ts';
import { tinyGlb, tinyGltf } from './fixture.ts';

describe('validateGltf', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aso-gltf-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes a GLB and a glTF with a data: buffer', async () => {
    expect((await validateGltfBytes(await tinyGlb(), { format: 'glb' })).findings).toEqual([]);
    expect((await validateGltfBytes(tinyGltf(), { format: 'gltf' })).findings).toEqual([]);
  });

  it('reads files from disk', async () => {
    const path = join(dir, 'mesh.glb');
    await writeFile(path, await tinyGlb());
    expect((await validateGltfFile(path)).findings).toEqual([]);
  });

  it('refuses a buffer in an external file without reading it', async () => {
    await writeFile(join(dir, 'mesh.bin'), new Uint8Array(36));
    const path = join(dir, 'external.gltf');
    await writeFile(path, tinyGltf('mesh.bin'));
    expect((await validateGltfFile(path, { format: 'gltf' })).findings).toEqual([
      { pointer: '/buffers/0/uri', message: 'references the external file "mesh.bin"; only data: URIs or GLB-embedded buffers are allowed' },
    ]);
  });

  it('refuses a remote URI', async () => {
    expect((await validateGltfBytes(tinyGltf('https://cdn.test/mesh.bin'))).findings).toEqual([
      {
        pointer: '/buffers/0/uri',
        message: 'references the external file "https://cdn.test/mesh.bin"; only data: URIs or GLB-embedded buffers are allowed',
      },
    ]);
  });

  it('reports validator errors with their pointer', async () => {
    const gltf = JSON.parse(new TextDecoder().decode(tinyGltf()));
    gltf.accessors[0].count = 4;
    expect((await validateGltfBytes(new TextEncoder().encode(JSON.stringify(gltf)))).findings).toEqual([
      {
        pointer: '/accessors/0',
        message: 'gltf-validator ACCESSOR_TOO_LONG: Accessor (offset: 0, length: 48) does not fit referenced bufferView [0] length 36.',
      },
    ]);
  });

  it('reports a missing asset.version', async () => {
    expect((await validateGltfBytes(new TextEncoder().encode('{"asset":{}}'))).findings).toEqual([
      { pointer: '/asset', message: "gltf-validator UNDEFINED_PROPERTY: Property 'version' must be defined." },
    ]);
  });

  it('says when the bytes are not glTF at all', async () => {
    expect((await validateGltfBytes(new Uint8Array([1, 2, 3]))).findings).toEqual([
      { message: 'gltf-validator cannot read the file: Invalid data: could not detect glTF format.' },
    ]);
  });

  it('tells glTF representations from others', () => {
    expect(isGltf({ format: 'glb', mediaType: 'model/gltf-binary' })).toBe(true);
    expect(isGltf({ format: 'gltf', mediaType: 'model/gltf+json' })).toBe(true);
    expect(isGltf({ format: 'bin', mediaType: 'model/gltf-binary' })).toBe(true);
    expect(isGltf({ format: 'ply', mediaType: 'application/octet-stream' })).toBe(false);
  });
});
